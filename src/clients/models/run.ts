// Running a model with the router's retry rules: the same Idempotency-Key on every attempt; a 504
// deadline_exceeded with Retry-After means the generation is still running, so wait that long and
// collect it (bounded by --timeout, not by --retries); throttling, unavailability and the other
// timeouts are retried with Retry-After or backoff up to --retries; refusals never.
import { ApiError, WesError } from '../../errors.js';
import { backoffDelay, sleep } from '../../http/retry.js';
import type { ModelsClient, RunAnswer } from './client.js';
import type { AnswerSink } from '../../http/answer-sink.js';
import type { ModelRef } from '../../protocol/model-ids.js';

export interface RunWait {
  kind: 'collect' | 'retry';
  delayMs: number;
  /** Retries used so far (collect waits do not count). */
  attempt: number;
  error: WesError;
}

export interface RunOptions<B = Buffer> {
  idempotencyKey: string;
  /** Where the output goes instead of memory (each attempt opens it anew). */
  sink?: AnswerSink<B>;
  retries: number;
  signal?: AbortSignal;
  onWait?: (wait: RunWait) => void | Promise<void>;
}

const RETRIED_CODES = new Set(['deadline_exceeded', 'provider_timeout', 'concurrency_limit_exceeded', 'rate_limited', 'service_unavailable']);
/** A runaway server must not keep a call collecting forever when no --timeout is set. */
const MAX_COLLECTS = 600;

type Decision = { kind: 'fail' } | { kind: 'collect' | 'retry'; delayMs?: number };

export function decide(err: unknown): Decision {
  if (err instanceof ApiError) {
    const delayMs = err.retryAfterSeconds === undefined ? undefined : err.retryAfterSeconds * 1000;
    if (err.code === 'deadline_exceeded' && delayMs !== undefined) return { kind: 'collect', delayMs };
    if (RETRIED_CODES.has(err.code)) return { kind: 'retry', delayMs };
    if (err.code === 'internal_error' && (err.status ?? 0) >= 500) return { kind: 'retry', delayMs };
    return { kind: 'fail' };
  }
  if (err instanceof WesError && err.code === 'network_error') return { kind: 'retry' };
  return { kind: 'fail' };
}

export async function runWithRetries<B = Buffer>(client: ModelsClient, ref: ModelRef, body: Buffer, options: RunOptions<B>): Promise<RunAnswer<B>> {
  let retries = 0;
  let collects = 0;
  for (;;) {
    try {
      return await client.runOnce(ref, body, options.idempotencyKey, options.sink);
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      const decision = decide(err);
      if (decision.kind === 'fail') throw err;
      let delayMs: number;
      if (decision.kind === 'collect') {
        if (++collects > MAX_COLLECTS) throw err;
        delayMs = decision.delayMs!;
      } else {
        if (retries >= options.retries) throw err;
        delayMs = decision.delayMs ?? backoffDelay(retries);
        retries++;
      }
      await options.onWait?.({ kind: decision.kind, delayMs, attempt: retries, error: err as WesError });
      await sleep(delayMs, options.signal);
    }
  }
}
