// The router's rules for sending a call again, with the same Idempotency-Key on every attempt:
// - collect: a 504 deadline_exceeded with Retry-After (the router stopped waiting, the provider
//   did not), or a 409 concurrency_limit_exceeded (the published router: an earlier call with this
//   key is still running). Wait that long and send the same key again: the router hands back that
//   generation instead of starting another. Bounded by --timeout, not by --retries.
// - retry: throttling, unavailability and the other timeouts, with Retry-After or backoff, up to
//   --retries.
// - never: refusals, a 409 invalid_input (the key belongs to another request), terminal buckets.
import { ApiError, WesError } from '../../errors.js';
import { backoffDelay, sleep } from '../../http/retry.js';

/** Why a collect waits: the router's deadline passed, or an earlier call with this key is still running. */
export type CollectReason = 'deadline' | 'in_flight';

export interface RunWait {
  kind: 'collect' | 'retry';
  /** For a collect: what it waits for. */
  reason?: CollectReason;
  delayMs: number;
  /** Retries used so far (collect waits do not count). */
  attempt: number;
  error: WesError;
}

export interface SendOptions {
  retries: number;
  signal?: AbortSignal;
  onWait?: (wait: RunWait) => void | Promise<void>;
}

const RETRIED_CODES = new Set(['deadline_exceeded', 'provider_timeout', 'concurrency_limit_exceeded', 'rate_limited', 'service_unavailable', 'queue_backlog_full']);
/** A runaway server must not keep a call collecting forever when no --timeout is set. */
const MAX_COLLECTS = 600;
/** A 409 "still running" that names no pace is asked again after this long. */
const IN_FLIGHT_DELAY_MS = 1000;

type Decision = { kind: 'fail' } | { kind: 'retry'; delayMs?: number } | { kind: 'collect'; reason: CollectReason; delayMs: number };

export function decide(err: unknown): Decision {
  if (err instanceof ApiError) {
    const delayMs = err.retryAfterSeconds === undefined ? undefined : err.retryAfterSeconds * 1000;
    if (err.code === 'deadline_exceeded' && delayMs !== undefined) return { kind: 'collect', reason: 'deadline', delayMs };
    if (err.status === 409) {
      return err.code === 'concurrency_limit_exceeded' ? { kind: 'collect', reason: 'in_flight', delayMs: delayMs ?? IN_FLIGHT_DELAY_MS } : { kind: 'fail' };
    }
    if (RETRIED_CODES.has(err.code)) return { kind: 'retry', delayMs };
    if (err.code === 'internal_error' && (err.status ?? 0) >= 500) return { kind: 'retry', delayMs };
    return { kind: 'fail' };
  }
  if (err instanceof WesError && err.code === 'network_error') return { kind: 'retry' };
  return { kind: 'fail' };
}

/** `send` again by the rules above until it answers, fails for good, or the signal stops it. */
export async function sendByRouterRules<T>(send: () => Promise<T>, options: SendOptions): Promise<T> {
  let retries = 0;
  let collects = 0;
  for (;;) {
    try {
      return await send();
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      const decision = decide(err);
      if (decision.kind === 'fail') throw err;
      let delayMs: number;
      if (decision.kind === 'collect') {
        if (++collects > MAX_COLLECTS) throw err;
        delayMs = decision.delayMs;
      } else {
        if (retries >= options.retries) throw err;
        delayMs = decision.delayMs ?? backoffDelay(retries);
        retries++;
      }
      await options.onWait?.({ kind: decision.kind, reason: decision.kind === 'collect' ? decision.reason : undefined, delayMs, attempt: retries, error: err as WesError });
      await sleep(delayMs, options.signal);
    }
  }
}
