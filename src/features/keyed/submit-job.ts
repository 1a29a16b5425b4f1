// One job submit under a single-use Idempotency-Key, as the published contract has it: the key is
// sent once with its label in `metadata` (clients/jobs/submit-labelled.ts), and when no usable
// answer comes back the job is looked for by that label instead of being sent again (verdict.ts).
// Shared by `jobs submit`, `jobs rerun` and the MCP submit; a batch line goes its own way
// (features/batch/runner.ts) on the same send and verdict.
import type { Clock } from '../../util/clock.js';
import type { JobLabels, SubmitRequest } from '../../protocol/jobs.js';
import type { FetchedJob, JobsClient, SubmitOptions } from '../../clients/jobs/client.js';
import { awaitJobByKey, SEARCH_PAUSES_MS, type KeySearch as JobSearch } from '../../clients/jobs/find-by-key.js';
import { isKeyReuse, sendLabelled } from '../../clients/jobs/submit-labelled.js';
import { sendKeyed, type KeySearch } from './verdict.js';
import { InterruptedError } from '../../errors.js';
import { interruptedSubmit, keyReused, provenAbsent, submitInDoubt } from './job-hints.js';

export interface KeyedSubmit {
  /** The request without `metadata`: the labels go in as the deployment takes them. */
  request: SubmitRequest;
  /** The user's own labels (--label), beside wes's key label. */
  labels?: JobLabels;
  /** The key came from the user: a refusal as reused looks for the job an earlier use made. */
  keyGiven: boolean;
  signal?: AbortSignal;
  /** When the key went out, for the search's verdict. */
  clock: Clock;
  /** Watches the body go (postJob). */
  observeBody?: SubmitOptions['observeBody'];
}

export interface SubmitOutcome {
  job: FetchedJob;
  /**
   * `answered`: the service answered this submit. `lost-answer`: no usable answer came, and the job
   * was found by its key. `key-used-before`: the service refused the given key as already used, and
   * the job made with it was found.
   */
  how: 'answered' | 'lost-answer' | 'key-used-before';
}

/** A job search in the verdict's terms. */
export function asKeySearch(search: JobSearch): KeySearch<FetchedJob> {
  return search.kind === 'found' ? { kind: 'found', value: search.job } : search;
}

/** The submit's outcome; a failure is thrown as the verdict tells it (in doubt, proven absent, a reused key, interrupted on its way). */
export async function submitKeyed(client: JobsClient, key: string, s: KeyedSubmit): Promise<SubmitOutcome> {
  try {
    const sentAt = s.clock.now();
    const verdict = await sendKeyed(() => sendLabelled(client, s.request, key, s.labels, { observeBody: s.observeBody }), {
      signal: s.signal,
      // A given key refused as used: the job an earlier use made, when the list shows one.
      searchAlso: s.keyGiven ? isKeyReuse : undefined,
      // A reused key was sent before this send: no send time to prove absence by, and no job still in the making.
      find: async (err) => asKeySearch(await awaitJobByKey(client, key, isKeyReuse(err) ? {} : { sentAt }, s.signal, isKeyReuse(err) ? [] : SEARCH_PAUSES_MS)),
    });
    if (verdict.kind === 'answered') return { job: verdict.value, how: 'answered' };
    const err = verdict.error;
    // A refusal as reused, whose job the list does not show: explained without guessing why.
    if (isKeyReuse(err)) {
      if (verdict.kind === 'found') return { job: verdict.value, how: 'key-used-before' };
      throw keyReused(err, verdict.kind === 'unsent' ? undefined : verdict.search);
    }
    switch (verdict.kind) {
      case 'found':
        return { job: verdict.value, how: 'lost-answer' };
      case 'proven-absent':
        throw provenAbsent(err, key);
      case 'in-doubt':
        throw verdict.search ? submitInDoubt(err, key, verdict.search) : err;
      case 'unsent':
        throw err;
    }
  } catch (err) {
    // Stopped while the submit was on its way: the service may have made the job (said in the one form of every interruption).
    if (err instanceof InterruptedError) interruptedSubmit(err, key);
    throw err;
  }
}
