// When to try a request again and how long to wait: Retry-After (integer seconds, or an HTTP
// date) when the server gives one, otherwise capped exponential backoff with jitter.
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

export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (!Number.isNaN(date)) return Math.max(0, date - now);
  return undefined;
}

/** Equal jitter: half the exponential step fixed, half random, capped. */
export function backoffDelay(attempt: number, random = Math.random): number {
  const step = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
  return Math.round(step / 2 + random() * (step / 2));
}

export { sleep } from '../util/sleep.js';
