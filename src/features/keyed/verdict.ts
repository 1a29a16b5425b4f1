// "Did the POST go through?", answered once for every single-use send: a job submit (one, a
// batch line, a rerun), an asset upload, a model run and a queued model request. The one keyed send
// (sendKeyed) sends once (the HTTP layer resends only what provably never reached the server, or
// what a 429 refused); when no usable answer comes back it is never sent again under its spent key:
// what it made is looked for instead. It ends in one of five ways: answered; unsent (it never reached the server, or the server refused it clearly:
// nothing was made); or, when no usable answer came back, found by its key, proven absent (a search
// that covers the send shows nothing was made: sending again is safe), or in doubt.
import { ApiError, HANDSHAKE_FAILURES, UsageError, WesError, neverReachedServer } from '../../errors.js';
import type { KeySearch, SearchMiss } from '../../clients/shared/key-search.js';

/**
 * Whether a request that changes something may have taken effect although no usable answer came
 * back: a 5xx, a 2xx that could not be read, a lost answer, a read timeout, an interruption while
 * it was in flight, and the model router's 409 concurrency_limit_exceeded (an earlier call with
 * this key is still running). A clear refusal (any other 4xx, 429 included, and 501: the server
 * does not implement the request), a server that is no job API, and a connection or TLS handshake
 * that was never made are not in doubt.
 */
export function mayHaveTakenEffect(err: unknown): boolean {
  if (err instanceof UsageError) return false;
  if (err instanceof WesError && (HANDSHAKE_FAILURES.has(err.code) || err.code === 'not_job_api')) return false;
  if (err instanceof ApiError && err.status === undefined) return true;
  // An answer came: its status says whether the server acted on the request.
  if (err instanceof WesError && err.status !== undefined) {
    if (err.status === 409 && err.code === 'concurrency_limit_exceeded' && err.origin === 'models') return true;
    return err.status < 300 || (err.status >= 500 && err.status !== 501);
  }
  // An unreadable answer, a broken or stalled connection, an interruption: the work may be done.
  return !neverReachedServer(err instanceof WesError ? err.cause : err);
}

export type Verdict<T> =
  | { kind: 'answered'; value: T }
  /** Nothing reached the server, or it refused the send: nothing was made. */
  | { kind: 'unsent'; error: unknown }
  /** No usable answer; what it made was found by its key. */
  | { kind: 'found'; value: T; error: unknown }
  /** No usable answer; a search proves nothing was made, so sending again is safe. */
  | { kind: 'proven-absent'; error: unknown; search: SearchMiss }
  /** No usable answer, and nothing tells whether it was made (`search` undefined: none was made, as for an interruption). */
  | { kind: 'in-doubt'; error: unknown; search?: SearchMiss };

/** The verdicts of a send that got no usable answer. */
export type NoAnswer<T> = Exclude<Verdict<T>, { kind: 'answered' | 'unsent' }>;

/** The verdict on a send that got no usable answer (`error`), from what a search by its key found. */
export function judgeSearch<T>(error: unknown, search: KeySearch<T>): NoAnswer<T> {
  if (search.kind === 'found') return { kind: 'found', value: search.value, error };
  if (search.kind === 'absent' && search.proven) return { kind: 'proven-absent', error, search };
  return { kind: 'in-doubt', error, search };
}

export interface KeyedSendOptions<T> {
  /** Looks for what the send made, by its key, once no usable answer came (`err`; none: in doubt at once). */
  find?: (err: unknown) => Promise<KeySearch<T>>;
  /** Aborted: the send is in doubt, and nothing is searched. */
  signal?: AbortSignal;
  /** A refusal that still calls for a search (a batch line's key refused as already used). */
  searchAlso?: (err: unknown) => boolean;
}

export async function sendKeyed<T>(send: () => Promise<T>, options: KeyedSendOptions<T> = {}): Promise<Verdict<T>> {
  try {
    return { kind: 'answered', value: await send() };
  } catch (error) {
    const doubt = mayHaveTakenEffect(error);
    if (!doubt && !options.searchAlso?.(error)) return { kind: 'unsent', error };
    if (options.signal?.aborted || !options.find) return doubt ? { kind: 'in-doubt', error } : { kind: 'unsent', error };
    return judgeSearch(error, await options.find(error));
  }
}
