// What `jobs watch`, `jobs submit --wait`, `jobs rerun --wait` and `jobs cancel --wait` share:
// follow the job to a terminal status showing it as it goes (spinner on a terminal, one line per
// change otherwise, NDJSON of changed snapshots with --json: polled Jobs with the event stream's
// latest progress in them), noting each new status in the history, then exit by outcome. Ctrl-C
// and --timeout leave the job running and say the command that resumes what was asked, unless
// --cancel-on-interrupt asks to cancel it first.
import type { Factory } from '../../factory.js';
import { ExitCode, InterruptedError } from '../../errors.js';
import { JobsClient, type FetchedJob } from '../../clients/jobs/client.js';
import { followJob } from '../../clients/jobs/follow-job.js';
import { isTerminal } from '../../protocol/jobs.js';
import type { ProgressDisplay } from '../../render/progress.js';
import { openProgressDisplay } from '../../render/open-progress.js';
import { sanitizeLine } from '../../render/sanitize.js';
import { intervalMs } from '../poll-interval.js';
import { outcomeLine, outputLine, progressLine, renderJobError } from './job-view.js';
import { saveOutputs } from './save-outputs.js';
import { existingPolicy, type ExistingPolicy } from '../../files/existing.js';
import { checkFolderTarget } from '../../files/targets.js';
import { recordStatus } from './history.js';
import { followFlagWords, resumeCommand, sayLeftRunning, tellLeftRunning } from './left-running.js';
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

const CANCEL_DEADLINE_MS = 15_000;

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

export function exitCodeFor(status: string, canceledExit: number = ExitCode.CANCELED): number {
  switch (status) {
    case 'succeeded':
      return ExitCode.OK;
    case 'canceled':
      return canceledExit;
    case 'failed':
    case 'expired':
      return ExitCode.FAILED;
    default:
      return ExitCode.ERROR;
  }
}

export async function followAndReport(f: Factory, client: JobsClient, start: FetchedJob, options: WatchJobOptions): Promise<number> {
  const { io } = f;
  const debug = (line: string) => io.debug(sanitizeLine(line));
  const progress: ProgressDisplay | undefined = io.json ? undefined : await openProgressDisplay(io, progressLine(start.job));
  const seenOutputs = new Set<string>();
  // Opening previews may ask the terminal (a query, up to 300 ms for its answer): only when one can come.
  if (options.preview && !options.events) io.info('no preview pictures with --no-events: previews come on the event stream');
  const previews = options.preview && options.events && !isTerminal(start.job.status) ? await (await import('../../render/pictures/preview.js')).PreviewPictures.open(io, progress) : null;
  let last = start;
  let recorded = '';
  try {
    const snapshots = followJob(client, start, {
      intervalMs: options.intervalMs,
      signal: f.signal,
      openEvents: options.events ? (signal) => new JobsClient(f.http(AbortSignal.any([f.signal, signal]))) : undefined,
      debug,
      notice: (line) => io.info(sanitizeLine(line)),
      onPreview: previews ? (preview) => previews.offer(preview.bytes) : undefined,
    });
    for await (const snapshot of snapshots) {
      last = snapshot;
      const job = snapshot.job;
      if (job.status !== recorded) {
        recorded = job.status;
        recordStatus(f, job);
      }
      if (io.json) io.printJson(job, true);
      for (const o of job.outputs) {
        if (seenOutputs.has(o.id)) continue;
        seenOutputs.add(o.id);
        progress?.log(outputLine(o));
      }
      progress?.update(progressLine(job));
    }
  } catch (err) {
    progress?.stop();
    if (err instanceof InterruptedError) throw await interrupted(f, last, options, err);
    if (f.signal.aborted) sayLeftRunning(io, last.job.id, resumeOf(f, last.job.id, options));
    throw err;
  }
  const job = last.job;
  await previews?.settled();
  if (progress) {
    if (job.status === 'succeeded') progress.succeed(outcomeLine(job));
    else progress.fail(outcomeLine(job));
    // The outcome line already carries the error summary; the rest (traceback, node errors) follows.
    if (job.error) {
      const details = renderJobError(io, job.id, job.error, io.verbose, 'stderr', false);
      if (details.text) io.warn(details.text);
      for (const hint of details.hints) io.info(hint);
    }
  }
  if (options.afterCancel && job.status !== 'canceled') io.notice(sanitizeLine(`note: the cancel did not take effect: job ${job.id} ${job.status === 'succeeded' ? 'ran to the end and succeeded' : `ended ${job.status}`}`));
  const code = exitCodeFor(job.status, options.canceledExit);
  if (options.download !== undefined) {
    if (job.status === 'succeeded') await saveOutputs(f, client, last, options.download, { toStdout: !io.json, existing: options.existing });
    else io.info(sanitizeLine(`not downloading: the job ${job.status === 'canceled' ? 'was canceled' : job.status}`));
  }
  return code;
}

function resumeOf(f: Factory, id: string, options: WatchJobOptions): string {
  return resumeCommand(f, options.resumeVerb ?? ['watch'], id, options.resumeFlags);
}

/** The interruption, told what keeps running and how to go on (render/error.ts says it). */
async function interrupted(f: Factory, last: FetchedJob, options: WatchJobOptions, stop: InterruptedError): Promise<InterruptedError> {
  const id = last.job.id;
  if (!options.cancelOnInterrupt) return tellLeftRunning(stop, id, resumeOf(f, id, options));
  // The command's signal is aborted now: the cancel needs a client of its own, with a deadline.
  const client = new JobsClient(f.http(AbortSignal.timeout(CANCEL_DEADLINE_MS)));
  try {
    const after = await client.cancel(last);
    recordStatus(f, after.job);
    return stop.tell(sanitizeLine(`asked the service to cancel job ${id} (status now ${after.job.status})`));
  } catch (err) {
    return stop.tell(sanitizeLine(`job ${id} keeps running on the service: it could not be canceled (${(err as Error).message})`), `wes jobs cancel ${id}`);
  } finally {
    await client.http.close();
  }
}
