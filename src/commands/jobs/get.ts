// wes jobs get <id>: the authoritative view of a job; --json prints the service's Job unchanged.
// Human output is the record only (stdout); how to see more goes to stderr, as gh does. The view
// (tables, colour) loads only when it is printed: scripts call `--json` in loops.
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { readJob } from './read-job.js';

export async function run(f: Factory, args: string[]): Promise<number> {
  const { job } = await readJob(f, new JobsClient(f.http()), args[0]!);
  if (f.io.json) {
    f.io.printJson(job);
    return 0;
  }
  const { renderJob } = await import('./job-view.js');
  const view = renderJob(f.io, job, f.io.verbose);
  f.io.println(view.text);
  for (const hint of view.hints) f.io.info(hint);
  return 0;
}
