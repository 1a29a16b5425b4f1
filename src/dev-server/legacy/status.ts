// The v1 status names of a job. The interface fixes only the terminal values; the in-flight names
// and the short-lived first phases follow the hosted service (`submitted` right after the POST,
// `preparing` while a worker picks the job up), so clients meet names they must not match on.
import type { EngineJob } from '../contract.js';

/** Failures retrying cannot fix: the workflow itself was refused. */
const NON_RETRYABLE = /validation|invalid|missing_node|unknown_node/i;

export interface StatusClock {
  now: number;
  /** How long `submitted` and `preparing` last after creation and start. */
  settleMs: number;
}

export function v1Status(job: Pick<EngineJob, 'status' | 'created_at' | 'started_at' | 'error'>, clock: StatusClock): string {
  const created = Date.parse(job.created_at);
  switch (job.status) {
    case 'queued':
      return clock.now - created < clock.settleMs ? 'submitted' : 'queued_waiting';
    case 'running': {
      // The phases follow one another even when a free slot starts the job at once.
      if (clock.now - created < clock.settleMs) return 'submitted';
      const started = Math.max(job.started_at ? Date.parse(job.started_at) : clock.now, created + clock.settleMs);
      return clock.now - started < clock.settleMs ? 'preparing' : 'executing';
    }
    case 'canceling':
      return 'cancel_requested';
    case 'succeeded':
      return 'success';
    case 'failed':
      return job.error && (job.error.exception_type === 'ValidationError' || NON_RETRYABLE.test(job.error.code)) ? 'non_retryable_error' : 'error';
    case 'canceled':
      return 'cancelled';
    case 'expired':
      return 'lost';
  }
}

/** The window of the short first phases: a couple of sampler steps, so a poller can see them. */
export function settleMs(stepMs: number): number {
  return Math.max(50, stepMs * 2);
}
