// wes jobs get <id>: the authoritative view of a job; --json prints the service's Job unchanged.
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../surfaces/jobs/client.js';
import { renderJob } from './job-view.js';

export async function run(f: Factory, args: string[]): Promise<number> {
  const { job } = await new JobsClient(f.http()).get(args[0]!);
  if (f.io.json) f.io.printJson(job);
  else f.io.println(renderJob(f.io, job, f.io.verbose));
  return 0;
}
