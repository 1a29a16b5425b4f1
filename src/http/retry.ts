// When to try a request again and how long to wait: Retry-After (integer seconds, or an HTTP
// date) when the server gives one, otherwise capped exponential backoff with jitter.
export const DEFAULT_RETRIES = 4;
const BASE_DELAY_MS = 300;
const MAX_DELAY_MS = 10_000;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** A request may be repeated when it cannot create a second effect. */
export function isReplaySafe(method: string, hasIdempotencyKey: boolean): boolean {
  return SAFE_METHODS.has(method.toUpperCase()) || hasIdempotencyKey;
}

export const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

/** Network failures where nothing reached the server can be repeated for any method. */
export function isConnectFailure(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === 'ECONNREFUSED' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
}

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
