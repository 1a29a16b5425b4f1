// `wes library`: Comfy Cloud's asset library on the cloud API v1 (models and inputs, found by tags).
// Not `wes assets`: those are the job API v2's assets, another API with other records and ids.
import { defineGroup } from '../group.js';

export default defineGroup({
  command: { name: 'library', summary: 'Comfy Cloud\'s asset library (cloud API v1): models and inputs by tag', group: 'Cloud API v1 (deprecated):' },
  verbs: ['list', 'get', 'add', 'download', 'task', 'remote-info', 'has', 'update', 'rm', 'tags'],
});
