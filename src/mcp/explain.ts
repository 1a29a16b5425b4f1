// What the command groups know about an error that the error alone does not say (a job API 404 from
// a ComfyUI engine, a connection that failed), asked as the CLI's error path asks them. Named here
// rather than read from the manifest: the manifest loads this verb, so reading it back would be an
// import cycle. Each lives in src/command-kit/, which the group's file re-exports, so the server
// stays below the commands. test/unit/mcp-explainers.test.ts fails when the groups register another.
import type { Factory } from '../factory.js';

export const EXPLAINERS = [
  { group: 'legacy', module: 'missing-job-api', load: () => import('../command-kit/legacy/missing-job-api.js') },
  { group: 'doctor', module: 'connection-hint', load: () => import('../command-kit/doctor/connection-hint.js') },
] as const;

export async function explained(f: Factory, err: unknown): Promise<unknown> {
  for (const { load } of EXPLAINERS) err = await (await load()).explain(f, err).catch(() => err);
  return err;
}
