// wes jobs get <id>: the authoritative view of a job; --json prints the service's Job unchanged.
// The human view (tables, colour) loads only when it is printed: scripts call `--json` in loops.
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { recordStatus, resolveJobRef } from './history.js';

export async function run(f: Factory, args: string[]): Promise<number> {
  const { job } = await new JobsClient(f.http()).get(resolveJobRef(f, args[0]!));
  recordStatus(f, job);
  if (f.io.json) {
    f.io.printJson(job);
    return 0;
  }
  const { renderJob } = await import('./job-view.js');
  f.io.println(renderJob(f.io, job, f.io.verbose));
  return 0;
}
