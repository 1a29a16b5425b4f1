// `wes workflows`: convert editor (UI-format) workflows to the API format, and check them locally.
import { defineGroup } from '../group.js';

export default defineGroup({
  command: { name: 'workflows', summary: 'Workflows saved in the editor: on the server (list, pull, push, rm, mv, templates), converted to the API format, checked locally', group: 'Job API v2:' },
  verbs: ['convert', 'validate', 'list', 'pull', 'push', 'rm', 'mv', 'templates'],
});
