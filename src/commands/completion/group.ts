// `wes completion <shell>`, and `wes __complete <kind>` that its scripts ask for dynamic values.
import { defineGroup } from '../group.js';

export default defineGroup({ verbs: ['run', 'values'] });
