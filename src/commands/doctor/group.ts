// `wes doctor`, and what a failed connection should tell whatever command met it.
import { defineGroup } from '../group.js';

export default defineGroup({ verbs: ['run'], explainers: ['connection-hint'] });
