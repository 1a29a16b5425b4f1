// `wes workflows`: convert editor (UI-format) workflows to the API format, and check them locally.
import { defineGroup } from '../group.js';

export default defineGroup({
  command: { name: 'workflows', summary: 'Editor workflows: saved on the server (list, pull, push, rm, mv), converted, checked', group: 'Job API v2:' },
  verbs: ['convert', 'validate', 'list', 'pull', 'push', 'rm', 'mv', 'templates'],
});
