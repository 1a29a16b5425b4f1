// wes jobs download <id> [dir]: every output of the job into DIR (default ./<job-id>), plus job.json.
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../surfaces/jobs/client.js';
import { isTerminal } from '../../protocol/jobs.js';
import { safeFileName } from '../../files/safe-name.js';
import { sanitizeLine } from '../../render/sanitize.js';
import { saveOutputs } from './save-outputs.js';

export async function run(f: Factory, args: string[]): Promise<number> {
  const client = new JobsClient(f.http());
  const current = await client.get(args[0]!);
  const dir = args[1] ?? safeFileName(current.job.id, 'job');
  if (!isTerminal(current.job.status)) {
    f.io.info(sanitizeLine(`note: job ${current.job.id} is still ${current.job.status}; saving the outputs committed so far`));
  }
  await saveOutputs(f, client, current, dir, { toStdout: true });
  return 0;
}
