// The doctor group's error explainer (doctor/group.ts registers it): src/command-kit/doctor/connection-hint.ts,
// where `wes mcp` asks it too.
export { explain } from '../../command-kit/doctor/connection-hint.js';
