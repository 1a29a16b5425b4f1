// The one shape of a follow: a v2 job (jobs/follow.ts), a v1 prompt over the WebSocket or by
// polling (legacy/follow-prompt.ts, legacy/poll-prompt.ts) and a queued model request
// (models/follow.ts) are each followed to their end by a function of a FollowReporter: it tells
// the reporter each state as it changes (progress), what stays on record (event, notice), and
// returns the result at the end. Whatever stops a follow first takes the live line down, then is
// told what keeps running and the command that goes on (an interruption in the one form of every
// interruption, InterruptedError.tell).
import type { FollowReporter } from './reporter.js';

/** Follows one thing to its end, told to `reporter`; returns its result, or throws what stopped it (told how to go on). */
export type Follow<S, R> = (reporter: FollowReporter<S>) => Promise<R>;

/**
 * Runs a follow's loop: on a failure the live line goes first (reporter.stop), then `stopped`
 * turns the failure into what is thrown (told what keeps running, how to go on).
 */
export async function following<S, R>(reporter: FollowReporter<S>, loop: () => Promise<R>, stopped: (err: unknown) => unknown): Promise<R> {
  try {
    return await loop();
  } catch (err) {
    reporter.stop();
    throw await stopped(err);
  }
}
