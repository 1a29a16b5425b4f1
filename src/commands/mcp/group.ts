// `wes mcp`: wes as a Model Context Protocol server for AI agents.
import { defineGroup } from '../group.js';

export default defineGroup({ verbs: ['run'] });
