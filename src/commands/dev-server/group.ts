// `wes dev-server`.
import { defineGroup } from '../group.js';

export default defineGroup({ verbs: ['run'] });
