// `wes jobs`: submit workflows, watch jobs, fetch their outputs and logs (job API v2).
import { defineGroup } from '../group.js';

export default defineGroup({
  command: { name: 'jobs', summary: 'Submit workflows, watch jobs, fetch their outputs and logs (job API v2)', group: 'Job API v2:' },
  verbs: ['submit', 'list', 'find', 'get', 'watch', 'workflow', 'rerun', 'cancel', 'logs', 'download'],
});
