// Saving every output of a job into a folder (`jobs download`, `--download DIR`): the files fetched
// blake3-checked (src/clients/jobs/download.ts), shown as they go through the TransferReporter; a
// download cut short keeps its .part files, told with the command that resumes them.
import type { FeatureContext } from '../context.js';
import type { FetchedJob, JobsClient } from '../../clients/jobs/client.js';
import { downloadOutputs, type DownloadResult } from '../../clients/jobs/download.js';
import type { ExistingPolicy } from '../../files/existing.js';
import { keptNotices, type KeptPart } from '../../files/kept.js';
import { shellWord } from '../../util/shell-word.js';
import { FileExistsError } from '../../files/safe-file.js';
import type { TransferReporter } from '../reporter.js';

/** The outputs saved and those that could not be; throws what stopped the download (Ctrl-C, --timeout). */
export async function downloadJobOutputs(client: JobsClient, job: FetchedJob, dir: string, existing: ExistingPolicy, reporter: TransferReporter, f: Pick<FeatureContext, 'signal' | 'hashing'>): Promise<DownloadResult> {
  const shown = await reporter.transfer({ verb: 'downloading', sizes: job.job.outputs.map((o) => o.size_bytes ?? null) });
  const kept: KeptPart[] = [];
  let result: DownloadResult;
  try {
    result = await downloadOutputs(client, job, {
      dir,
      onProgress: shown ? (p) => shown.progress(p) : undefined,
      existing,
      warn: (line) => reporter.notice('warn', line),
      onKept: (part) => kept.push(part),
      hashing: f.hashing(),
    });
  } finally {
    shown?.done();
    for (const line of keptNotices(kept, `wes jobs download ${job.job.id} ${shellWord(dir)}`)) reporter.notice('notice', line);
  }
  if (f.signal.aborted) throw f.signal.reason;
  return result;
}

/**
 * A file in the way is settled by downloading the same job again with a policy, never by
 * submitting it again (`--clobber` added to a `submit --download` would run and pay for a new job).
 */
function conflictHint(id: string, dir: string): string {
  return `the job is kept on the service: to replace the files there run \`wes jobs download ${id} ${shellWord(dir)} --clobber\` (--skip-existing keeps them); submitting again would run the job again`;
}

/** downloadJobOutputs for a command that names the job: a file in the way (thrown, or an output's failure) says how to settle it. */
export async function saveJobOutputs(f: Pick<FeatureContext, 'signal' | 'hashing'>, client: JobsClient, job: FetchedJob, dir: string, existing: ExistingPolicy, reporter: TransferReporter): Promise<DownloadResult> {
  const hinted = (err: unknown) => {
    if (err instanceof FileExistsError) err.hint = conflictHint(job.job.id, dir);
    return err;
  };
  try {
    const result = await downloadJobOutputs(client, job, dir, existing, reporter, f);
    for (const failed of result.errors) hinted(failed.error);
    return result;
  } catch (err) {
    throw hinted(err);
  }
}
