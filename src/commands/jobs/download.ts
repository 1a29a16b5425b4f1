// wes jobs download <id> [dir]: every output of the job into DIR (default ./<job-id>), plus job.json.
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { isTerminal } from '../../protocol/jobs.js';
import { safeFileName } from '../../files/safe-name.js';
import { existingPolicy } from '../../files/existing.js';
import { checkFolderTarget } from '../../files/targets.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { saveOutputs } from './save-outputs.js';
import { readJob } from './read-job.js';
import type { JobsDownloadOptions } from './options.js';

export async function run(f: Factory, args: string[], opts: JobsDownloadOptions): Promise<number> {
  const existing = existingPolicy(opts);
  if (args[1] !== undefined) await checkFolderTarget(args[1], 'the folder');
  const client = new JobsClient(f.http());
  const current = await readJob(f, client, args[0]!);
  const dir = args[1] ?? safeFileName(current.job.id, 'job');
  if (args[1] === undefined) await checkFolderTarget(dir, 'the folder');
  if (!isTerminal(current.job.status)) {
    f.io.info(sanitizeLine(`note: job ${current.job.id} is still ${current.job.status}; saving the outputs committed so far`));
  }
  await saveOutputs(f, client, current, dir, { toStdout: true, existing, show: opts.show === true });
  return 0;
}
