// Waiting for a queued request's result: the result route is asked until it hands the output over
// (its 202 "not yet" carries the request's state, so it is polled on its own), at the pace the
// router names in Retry-After (capped: a hint, not a bound to park behind), else on a growing
// schedule. A transient failure of one read is retried by the router's rules; a failed or
// cancelled request ends the wait with its error.
import { sleep } from '../../http/retry.js';
import type { AnswerSink } from '../../http/answer-sink.js';
import type { ModelRef } from '../../protocol/model-ids.js';
import type { RouterQueueStatusResponse } from '../../protocol/models.js';
import type { RunAnswer } from './client.js';
import type { ModelRequests } from './requests.js';
import { sendByRouterRules, type SendOptions } from './run.js';

/** The longest a Retry-After is slept on between two reads. */
export const MAX_POLL_WAIT_MS = 60_000;
const FIRST_POLL_MS = 1000;
const LAST_POLL_MS = 15_000;

export interface QueueWaitOptions<B> extends SendOptions {
  sink?: AnswerSink<B>;
  /** Told the request's state on the first read and whenever its status or queue position changes. */
  onState?: (state: RouterQueueStatusResponse, nextPollMs: number) => void | Promise<void>;
}

export function nextPollMs(retryAfterMs: number | undefined, scheduledMs: number): number {
  return retryAfterMs === undefined ? scheduledMs : Math.min(Math.max(retryAfterMs, 1), MAX_POLL_WAIT_MS);
}

export async function waitForResult<B = Buffer>(requests: ModelRequests, ref: ModelRef, requestId: string, options: QueueWaitOptions<B>): Promise<RunAnswer<B>> {
  let scheduled = FIRST_POLL_MS;
  let last: RouterQueueStatusResponse | undefined;
  for (;;) {
    const read = await sendByRouterRules(() => requests.result(ref, requestId, options.sink), options);
    if (read.ready) return read.answer;
    const wait = nextPollMs(read.retryAfterMs, scheduled);
    scheduled = Math.min(LAST_POLL_MS, Math.round(scheduled * 1.5));
    const state = read.value;
    if (!last || last.status !== state.status || last.queue_position !== state.queue_position) await options.onState?.(state, wait);
    last = state;
    await sleep(wait, options.signal);
  }
}
