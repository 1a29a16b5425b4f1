// Following a job to a terminal status for a waiting command (`jobs watch`, `jobs submit --wait`,
// `jobs rerun --wait`, `jobs cancel --wait`): every changed snapshot told to the reporter (polled
// Jobs with the event stream's latest progress in them), each new status noted in the history.
// Ctrl-C and --timeout leave the job running and say the command that resumes the follow, unless
// the follow was asked to cancel the job first.
import { InterruptedError } from '../../errors.js';
import { JobsClient, type FetchedJob } from '../../clients/jobs/client.js';
import { followJob } from '../../clients/jobs/follow-job.js';
import type { Job } from '../../protocol/jobs.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { shellWord } from '../../util/shell-word.js';
import type { FeatureContext } from '../context.js';
import type { FollowReporter } from '../reporter.js';
import { following, type Follow } from '../follow.js';
import { recordStatus } from './history.js';

export interface JobFollow {
  /** Milliseconds between polls. */
  intervalMs: number;
  /** Listen on the job's event stream (false: poll only). */
  events: boolean;
  /** On Ctrl-C, cancel the job before stopping. */
  cancelOnInterrupt: boolean;
  /** The command that picks the follow up again after Ctrl-C or --timeout. */
  resume: string;
}

const CANCEL_DEADLINE_MS = 15_000;

/** What a person reads after the resume command: the command that cancels the job instead. */
function cancelAside(id: string): string {
  return `(cancel it with: wes jobs cancel ${shellWord(id)})`;
}

/** A job followed from `start` to a terminal snapshot; what stops it is told what keeps running and how to go on. */
export function jobFollow(f: FeatureContext, client: JobsClient, start: FetchedJob, follow: JobFollow): Follow<Job, FetchedJob> {
  return async (reporter) => {
    let last = start;
    await following(reporter, async () => {
      for await (const snapshot of snapshots(f, client, start, follow, reporter)) {
        last = snapshot;
        reporter.data?.(snapshot.job);
        await reporter.progress(snapshot.job);
      }
    }, async (err) => {
      if (err instanceof InterruptedError) return interrupted(f, last, follow, err, reporter);
      if (f.signal.aborted) {
        // --timeout: the job goes on, and how to pick it up again.
        reporter.notice('notice', 'the job keeps running on the service.');
        reporter.notice('notice', `resume with: ${follow.resume}    ${cancelAside(last.job.id)}`);
      }
      return err;
    });
    // The job has ended: what the view does now (the last preview, the outcome line) is no longer the follow's.
    await reporter.ended?.(last.job);
    return last;
  };
}

/** The job's changed snapshots (polled, with the event stream's progress in them), each new status noted in the history. */
async function* snapshots(f: FeatureContext, client: JobsClient, start: FetchedJob, follow: JobFollow, reporter: FollowReporter<Job>): AsyncGenerator<FetchedJob> {
  let recorded = '';
  const all = followJob(client, start, {
    intervalMs: follow.intervalMs,
    clock: f.clock,
    signal: f.signal,
    openEvents: follow.events ? (signal) => f.client(JobsClient, AbortSignal.any([f.signal, signal])) : undefined,
    debug: (line) => reporter.notice('debug', sanitizeLine(line)),
    notice: (line) => reporter.notice('info', sanitizeLine(line)),
    onPreview: reporter.preview ? (preview) => reporter.preview!(preview.bytes) : undefined,
  });
  for await (const snapshot of all) {
    if (snapshot.job.status !== recorded) {
      recorded = snapshot.job.status;
      recordStatus(f, snapshot.job, (line) => reporter.notice('debug', line));
    }
    yield snapshot;
  }
}

/** The interruption, told what keeps running and how to go on (said in the one form of every interruption). */
async function interrupted(f: FeatureContext, last: FetchedJob, follow: JobFollow, stop: InterruptedError, reporter: FollowReporter<Job>): Promise<InterruptedError> {
  const id = last.job.id;
  if (!follow.cancelOnInterrupt) return stop.tell(`job ${id} keeps running on the service`, follow.resume, undefined, cancelAside(id));
  // The command's signal is aborted now: the cancel needs a client of its own, with a deadline.
  const client = f.client(JobsClient, AbortSignal.timeout(CANCEL_DEADLINE_MS));
  try {
    const after = await client.cancel(last);
    recordStatus(f, after.job, (line) => reporter.notice('debug', line));
    return stop.tell(sanitizeLine(`asked the service to cancel job ${id} (status now ${after.job.status})`));
  } catch (err) {
    return stop.tell(sanitizeLine(`job ${id} keeps running on the service: it could not be canceled (${(err as Error).message})`), `wes jobs cancel ${id}`);
  } finally {
    await client.http.close();
  }
}
