// `wes profiles`: list profiles and choose the one in use.
import { defineGroup } from '../group.js';

export default defineGroup({
  command: { name: 'profiles', summary: 'List profiles and choose the one in use', group: 'Setup and tools:' },
  verbs: ['list', 'use'],
});
