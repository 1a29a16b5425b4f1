// Following a job for a tool (wait_job, submit_job with wait): the feature every waiting command
// uses (src/features/jobs/follow.ts), its snapshots sent as MCP progress, bounded by the call's
// own `timeout_seconds`: a job still running then is an answer (finished: false), not a failure,
// so an agent whose client gives up on long calls waits again.
import { JobsClient, type FetchedJob } from '../../clients/jobs/client.js';
import { jobFollow } from '../../features/jobs/follow.js';
import { exitCodeFor } from '../../command-kit/jobs/exit-code.js';
import { isTerminal, type Job } from '../../protocol/jobs.js';
import { followReporter, jobLine } from '../reporters.js';
import type { ToolCall, ToolOutput } from '../tool.js';

export const DEFAULT_WAIT_SECONDS = 45;

export const TIMEOUT_SCHEMA = {
  type: 'number',
  exclusiveMinimum: 0,
  maximum: 86_400,
  description: `How long to wait in this call, in seconds (default ${DEFAULT_WAIT_SECONDS}). A job still running then is no error: the result says finished: false; call wait_job again. The job never stops because a wait ended.`,
} as const;

export interface Waited {
  job: Job;
  finished: boolean;
}

export async function waitForEnd(call: ToolCall, start: FetchedJob, timeoutSeconds = DEFAULT_WAIT_SECONDS): Promise<Waited> {
  if (isTerminal(start.job.status)) return { job: start.job, finished: true };
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutSeconds * 1000);
  const f = await call.open(deadline.signal);
  const reporter = followReporter(call);
  reporter.progress(start.job);
  try {
    const id = start.job.id;
    const last = await jobFollow(f, f.client(JobsClient), start, { intervalMs: 1000, events: true, cancelOnInterrupt: false, resume: `wait_job {"job_id": "${id}"}` })(reporter);
    return { job: last.job, finished: true };
  } catch (err) {
    if (!deadline.signal.aborted || call.f.signal.aborted) throw err;
    // The call's own deadline: the job as it is now, read on the call's client (the follow's is spent).
    const now = await call.f.client(JobsClient).refresh(start);
    return { job: now.job, finished: isTerminal(now.job.status) };
  } finally {
    clearTimeout(timer);
  }
}

/** A job's state as a tool's answer: the job, whether it has ended, and wes's exit code for how. */
export function jobOutcome(waited: Waited, extra: Record<string, unknown> = {}): ToolOutput {
  const { job, finished } = waited;
  const ended = finished && isTerminal(job.status);
  const next = ended ? (job.status === 'succeeded' ? `download its outputs with download_outputs {"job_id": "${job.id}", "dir": ...}` : '') : `still ${job.status}: wait again with wait_job {"job_id": "${job.id}"}`;
  return {
    summary: `${jobLine(job)}${next ? `; ${next}` : ''}`,
    structured: { ...extra, job, finished: ended, ...(ended ? { exit_code: exitCodeFor(job.status) } : {}) },
  };
}
