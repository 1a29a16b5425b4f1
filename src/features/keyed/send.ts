// The one keyed send: a single-use request goes out once (the HTTP layer resends only what
// provably never reached the server, or what a 429 refused), and when no usable answer comes back
// it is never sent again under its spent key: what it made is looked for instead, and the
// verdict (verdict.ts) says how it ended. The caller turns the verdict into its outcome.
import { judgeSearch, mayHaveTakenEffect, type KeySearch, type Verdict } from './verdict.js';

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
