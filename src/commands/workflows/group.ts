// `wes workflows`: convert editor (UI-format) workflows to the API format, and check them locally.
import { defineGroup } from '../group.js';

export default defineGroup({
  command: { name: 'workflows', summary: 'Convert workflows saved in the editor (UI format) to the API format, and check them locally', group: 'Job API v2:' },
  verbs: ['convert', 'validate'],
});
