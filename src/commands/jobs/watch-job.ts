// What `jobs watch`, `jobs submit --wait`, `jobs rerun --wait` and `jobs cancel --wait` share:
// the job followed to a terminal status (src/features/jobs/follow.ts) and shown as it goes
// (follow-view.ts), then the exit code by outcome, and with --download its outputs saved. Ctrl-C
// and --timeout leave the job running and say the command that resumes what was asked, unless
// --cancel-on-interrupt asks to cancel it first.
import type { Factory } from '../../factory.js';
import { exitCodeFor } from '../../command-kit/jobs/exit-code.js';
import type { FetchedJob, JobsClient } from '../../clients/jobs/client.js';
import { jobFollow } from '../../features/jobs/follow.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { intervalMs } from '../poll-interval.js';
import { saveOutputs } from './save-outputs.js';
import { existingPolicy, type ExistingPolicy } from '../../files/existing.js';
import { checkFolderTarget } from '../../files/targets.js';
import { followFlagWords, resumeCommand } from './left-running.js';
import { JobFollowView } from './follow-view.js';
import type { DownloadFlags, FollowFlags } from './options.js';

export interface WatchJobOptions {
  intervalMs: number;
  events: boolean;
  cancelOnInterrupt: boolean;
  download?: string;
  /** A file already in the --download folder. */
  existing: ExistingPolicy;
  /** Draw the latest preview picture under the progress line (`jobs watch --preview`). */
  preview?: boolean;
  /** How a canceled job ends the command (10 for watch; 0 for `cancel --wait`). */
  canceledExit?: number;
  /** The follow flags as given, for the command that resumes after Ctrl-C. */
  resumeFlags: string[];
  /** The verb that resumes (default `watch`; `cancel --wait` resumes as itself). */
  resumeVerb?: string[];
  /** Following a job asked to cancel: an end other than `canceled` is said (the cancel did not take). */
  afterCancel?: boolean;
}

/** The follow flags every waiting command takes, as its typed options hold them. */
export function watchJobOptions(opts: FollowFlags & Partial<DownloadFlags> & { preview?: boolean }): WatchJobOptions {
  return {
    intervalMs: intervalMs(opts.interval),
    events: opts.events !== false,
    cancelOnInterrupt: opts.cancelOnInterrupt === true,
    download: opts.download,
    existing: existingPolicy(opts),
    preview: opts.preview === true,
    resumeFlags: followFlagWords(opts),
  };
}

/** Checks the --download folder before anything is submitted or followed (exit 2 when unusable). */
export async function checkFollowTargets(options: WatchJobOptions): Promise<void> {
  if (options.download !== undefined) await checkFolderTarget(options.download, '--download');
}

export async function followAndReport(f: Factory, client: JobsClient, start: FetchedJob, options: WatchJobOptions): Promise<number> {
  const { io } = f;
  const view = await JobFollowView.open(io, start.job, { preview: options.preview, events: options.events });
  const resume = resumeCommand(f, options.resumeVerb ?? ['watch'], start.job.id, options.resumeFlags);
  const last = await jobFollow(f, client, start, { intervalMs: options.intervalMs, events: options.events, cancelOnInterrupt: options.cancelOnInterrupt, resume })(view);
  const job = last.job;
  await view.end(job);
  if (options.afterCancel && job.status !== 'canceled') io.notice(sanitizeLine(`note: the cancel did not take effect: job ${job.id} ${job.status === 'succeeded' ? 'ran to the end and succeeded' : `ended ${job.status}`}`));
  const code = exitCodeFor(job.status, options.canceledExit);
  if (options.download !== undefined) {
    if (job.status === 'succeeded') await saveOutputs(f, client, last, options.download, { toStdout: !io.json, existing: options.existing });
    else io.info(sanitizeLine(`not downloading: the job ${job.status === 'canceled' ? 'was canceled' : job.status}`));
  }
  return code;
}
