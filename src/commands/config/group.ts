// `wes config`: read and change the settings of a profile.
import { PROFILE_KEYS } from '../../config/keys.js';
import { defineGroup } from '../group.js';

export default defineGroup({
  command: {
    name: 'config',
    summary: 'Read and change settings of a profile (`wes config list` shows every key)',
    group: 'Setup and tools:',
    // The keys grow with the settings: listed below the commands, not squeezed into one line.
    after: [`\nKeys: ${PROFILE_KEYS.join(', ')}`],
  },
  verbs: ['list', 'get', 'set', 'unset'],
});
