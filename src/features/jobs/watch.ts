// What a waiting command does with a job (`jobs watch`, `jobs submit --wait`, `jobs rerun --wait`,
// `jobs cancel --wait`): the job followed to its end (follow.ts), a cancel that did not take said,
// and with --download the outputs of a job that succeeded saved into the folder; the command
// renders the saved files and turns the end into its exit code.
import type { FetchedJob, JobsClient } from '../../clients/jobs/client.js';
import type { DownloadResult } from '../../clients/jobs/download.js';
import type { ExistingPolicy } from '../../files/existing.js';
import type { Job } from '../../protocol/jobs.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { FeatureContext } from '../context.js';
import type { FollowReporter, TransferReporter } from '../reporter.js';
import { saveJobOutputs } from '../transfers/job-outputs.js';
import { jobFollow, type JobFollow } from './follow.js';

export interface JobWatch extends JobFollow {
  /** Save the outputs of a job that succeeds into this folder. */
  download?: string;
  /** A file already in the --download folder. */
  existing: ExistingPolicy;
  /** Following a job asked to cancel: an end other than `canceled` is said (the cancel did not take). */
  afterCancel?: boolean;
}

export interface Watched {
  /** The last snapshot, terminal. */
  last: FetchedJob;
  /** The outputs saved (--download, the job succeeded). */
  saved?: DownloadResult;
}

export async function watchJob(f: FeatureContext, client: JobsClient, start: FetchedJob, watch: JobWatch, reporter: FollowReporter<Job> & TransferReporter): Promise<Watched> {
  const last = await jobFollow(f, client, start, watch)(reporter);
  const job = last.job;
  if (watch.afterCancel && job.status !== 'canceled') reporter.notice('notice', sanitizeLine(`note: the cancel did not take effect: job ${job.id} ${job.status === 'succeeded' ? 'ran to the end and succeeded' : `ended ${job.status}`}`));
  if (watch.download === undefined) return { last };
  if (job.status !== 'succeeded') {
    reporter.notice('info', sanitizeLine(`not downloading: the job ${job.status === 'canceled' ? 'was canceled' : job.status}`));
    return { last };
  }
  return { last, saved: await saveJobOutputs(f, client, last, watch.download, watch.existing, reporter) };
}
