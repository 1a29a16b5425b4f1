// A model run (or queued submit) whose answer never came may still have gone through at the
// provider, and been charged. The router records a call under its Idempotency-Key and charges a
// key once: sent again with the same key, the call is collected (or its record replayed), never
// run twice. So every doubtful ending names the key and the exact command that collects it; a key
// the router refuses for this request (409 invalid_input) is said to need a new key instead.
import { ApiError, InterruptedError, WesError, toWesError } from '../../errors.js';
import type { Verdict } from '../keyed/verdict.js';

/**
 * A keyed call: its Idempotency-Key, what it is ("the model run"), and in the caller's words (a
 * command line, a tool call) how to send it again under the key and how to send it under a new one.
 */
export interface KeyedCall {
  key: string;
  what: string;
  /** What sends it again under `key` (the router collects it). */
  again: string;
  /** How to leave the key out, so a new one is made ("leave out --idempotency-key"). */
  newKey: string;
}

function withHint(e: WesError, hint: string, details: Record<string, unknown>, cause: unknown): WesError {
  const kept = e.details !== null && typeof e.details === 'object' && !Array.isArray(e.details) ? e.details : e.details === undefined ? {} : { details: e.details };
  return new WesError(e.message, { exitCode: e.exitCode, code: e.code, status: e.status, requestId: e.requestId, origin: e.origin, details: { ...kept, ...details }, hint, cause });
}

/** The error of a keyed call that got no answer, by its verdict, with what to do about the key, in the call's own words. */
export function keyedFailure(verdict: Exclude<Verdict<unknown>, { kind: 'answered' }>, call: KeyedCall): unknown {
  const { key, what, again } = call;
  const err = verdict.error;
  if (err instanceof ApiError && err.status === 409 && err.code === 'invalid_input') {
    return withHint(err, `the router will not serve this request under Idempotency-Key ${key}: it was used for a different request, or its answer can no longer be replayed. Run it again under a new key (${call.newKey})`, { idempotency_key: key }, err);
  }
  if (verdict.kind === 'unsent') return err;
  if (err instanceof InterruptedError) return err.tell(`${what} may have gone through (Idempotency-Key ${key}); the router charges a key once`, again, { idempotency_key: key });
  const e = toWesError(err);
  const hint = `${e.hint ? `${e.hint}. ` : ''}${what} may have gone through (Idempotency-Key ${key}); the router charges a key once, so collect its result with: ${again}`;
  return withHint(e, hint, { idempotency_key: key }, err);
}
