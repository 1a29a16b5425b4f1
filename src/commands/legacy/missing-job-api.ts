// The legacy group's error explainer (legacy/group.ts registers it): src/command-kit/legacy/missing-job-api.ts,
// where `wes mcp` asks it too.
export { explain } from '../../command-kit/legacy/missing-job-api.js';
