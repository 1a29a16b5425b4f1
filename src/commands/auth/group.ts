// `wes auth`: log in, check and remove the credentials of a profile.
import { defineGroup } from '../group.js';

export default defineGroup({
  command: { name: 'auth', summary: 'Log in, check and remove credentials of a profile', group: 'Setup and tools:' },
  verbs: ['login', 'status', 'logout'],
});
