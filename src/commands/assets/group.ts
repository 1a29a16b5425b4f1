// `wes assets`: upload input files, fetch and delete assets (job API v2).
import { defineGroup } from '../group.js';

export default defineGroup({
  command: { name: 'assets', summary: 'Upload input files, fetch and delete assets (job API v2)', group: 'Job API v2:' },
  verbs: ['upload', 'get', 'download', 'delete'],
});
