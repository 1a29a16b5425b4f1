// wes jobs watch <id>: follow a job until it ends; exit code by outcome.
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { checkFollowTargets, followAndReport, watchJobOptions } from './watch-job.js';
import { readJob } from './read-job.js';
import type { JobsWatchOptions } from './options.js';

export async function run(f: Factory, args: string[], opts: JobsWatchOptions): Promise<number> {
  const follow = watchJobOptions(opts);
  await checkFollowTargets(follow);
  const client = new JobsClient(f.http());
  return followAndReport(f, client, await readJob(f, client, args[0]!), follow);
}
