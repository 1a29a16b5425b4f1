// When to try a request again and how long to wait: Retry-After (integer seconds, or an HTTP
// date) when the server gives one, otherwise capped exponential backoff with jitter.
import { systemClock } from '../util/clock.js';

export const DEFAULT_RETRIES = 4;
const BASE_DELAY_MS = 300;
const MAX_DELAY_MS = 10_000;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * When a failed request may be sent again:
 * - `replay`: it cannot create a second effect (a read, an idempotent operation, a router call
 *   whose Idempotency-Key collects the first call's result): after network errors and 429/5xx.
 * - `single-use`: a job API submit or asset upload. Its Idempotency-Key is single use: the service
 *   refuses any second request with it (422 `idempotency_key_reuse`) and never replays the first
 *   answer. So it is sent again only when it provably never reached the server (a connect
 *   failure) or when the answer released the key (429: `queue_full`, `deployment_not_ready`,
 *   `deployment_unavailable`, `rate_limited`). A 5xx, a lost answer or a read timeout leave it in
 *   doubt: the caller looks for what it made instead of sending it again.
 * - `never`: anything else that changes something: only a connect failure is retried.
 */
export type ResendPolicy = 'replay' | 'single-use' | 'never';

export function defaultResendPolicy(method: string, family: string, hasIdempotencyKey: boolean): ResendPolicy {
  if (SAFE_METHODS.has(method.toUpperCase())) return 'replay';
  if (!hasIdempotencyKey) return 'never';
  return family === 'jobs' ? 'single-use' : 'replay';
}

export const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

/** Network failures where nothing reached the server can be repeated for any method. */
export { neverReachedServer as isConnectFailure } from '../errors.js';

export function parseRetryAfter(value: string | undefined, now = systemClock.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (!Number.isNaN(date)) return Math.max(0, date - now);
  return undefined;
}

/**
 * How long a server's Retry-After is waited, as the maker's clients do: at least 1 s (a `0`,
 * resent at once over and over, is a storm), at most RETRY_AFTER_MAX_MS. Beyond that no command
 * sits silent: the caller ends with a message naming when to retry (retryAfterTooLong).
 */
export const RETRY_AFTER_MIN_MS = 1000;
export const RETRY_AFTER_MAX_MS = 60_000;
/** The time one request may spend on retries, whatever its count of tries left. */
export const RETRY_BUDGET_MS = 120_000;

export function retryAfterWait(retryAfterMs: number): number {
  return Math.max(RETRY_AFTER_MIN_MS, retryAfterMs);
}

/** The hint of a refusal whose Retry-After is past the bound: when the server said to come back. */
export function retryAfterTooLong(retryAfterMs: number, now = systemClock.now()): string {
  const at = new Date(now + retryAfterMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `the server asks to wait ${Math.round(retryAfterMs / 1000)} s before trying again (longer than wes waits, ${RETRY_AFTER_MAX_MS / 1000} s): retry after ${at}`;
}

/** Equal jitter: half the exponential step fixed, half random, capped. */
export function backoffDelay(attempt: number, random = Math.random): number {
  const step = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
  return Math.round(step / 2 + random() * (step / 2));
}

export { sleep } from '../util/sleep.js';
