// `wes help`: a command's help, or a topic.
import { defineGroup } from '../group.js';

export default defineGroup({ verbs: ['run'] });
