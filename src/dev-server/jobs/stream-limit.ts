// Open event streams per credential: past `maxStreams` (0: no limit) a new one is refused with
// 429 `too_many_streams` and Retry-After, as the reference server does past 8. Polling stays open.
import type { RequestContext } from '../contract.js';
import { bearerToken } from '../core/auth.js';
import { sendJobsError } from '../http-kit.js';

/** Seconds a refused stream is told to wait. */
export const TOO_MANY_STREAMS_RETRY_AFTER = 5;

const open = new WeakMap<object, Map<string, number>>();

/** Counts a new stream for the caller, or answers 429 and returns null. */
export function openStream(ctx: RequestContext): { close: () => void } | null {
  const limit = ctx.state.options.maxStreams;
  let counts = open.get(ctx.state);
  if (!counts) open.set(ctx.state, (counts = new Map()));
  const caller = bearerToken(ctx) ?? '';
  const current = counts.get(caller) ?? 0;
  if (limit > 0 && current >= limit) {
    sendJobsError(ctx, 429, 'too_many_streams', `You already have ${current} event streams open; close one, or poll the job instead.`, null, {
      'retry-after': String(TOO_MANY_STREAMS_RETRY_AFTER),
    });
    return null;
  }
  counts.set(caller, current + 1);
  let closed = false;
  return {
    close: () => {
      if (closed) return;
      closed = true;
      const left = (counts.get(caller) ?? 1) - 1;
      if (left > 0) counts.set(caller, left);
      else counts.delete(caller);
    },
  };
}
