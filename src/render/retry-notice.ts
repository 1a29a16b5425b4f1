// The one line a retry wait of a second or more shows on every API family, e.g.
// `service busy (503); retrying in 2 s (attempt 2/5)`: a job that is fine must not look stuck.
import type { RetryInfo } from '../http/client.js';

/** Waits shorter than this pass without a word (a quick reconnect is not news). */
export const NOTICE_FROM_MS = 1000;

function what(info: RetryInfo): string {
  if (info.cause === 'read_timeout') return 'no answer from the service (read timeout)';
  if (info.cause === 'connect') return 'cannot reach the service';
  if (info.cause === 'network') return 'the connection dropped';
  const status = info.error?.status;
  const code = info.error?.code;
  // The service's own code says which wait it is (rate_limited, queue_full, deployment_not_ready).
  if (status === 429) return `${code && /^[a-z_]{1,40}$/.test(code) ? code.replaceAll('_', ' ') : 'rate limited'} (429)`;
  if (status === 503) return 'service busy (503)';
  return `server error (${status ?? 'unknown'})`;
}

export function retryNotice(info: RetryInfo): string {
  const seconds = Math.max(1, Math.round(info.delayMs / 1000));
  return `${what(info)}; retrying in ${seconds} s (attempt ${info.attempt + 1}/${info.maxRetries + 1})`;
}
