// What a job API submit's verdict tells a person: the errors of a submit that is in doubt, proven
// absent or refused as a reused key, each naming the key and the command that finds its job.
import { ApiError, InDoubtError, InterruptedError, toWesError } from '../../errors.js';
import type { SearchMiss } from '../../clients/shared/key-search.js';

/** The command that looks for a job by key again. */
export function findCommand(key: string): string {
  return `wes jobs find --key ${key}`;
}

/** Stopped while the submit was on its way: the service may have made the job. */
export function interruptedSubmit(err: InterruptedError, key: string): InterruptedError {
  return err.tell('the submit was on its way and may have made a job', findCommand(key), { idempotency_key: key });
}

/** The submit's own failure, once the job list proves no job was made: sending again is safe. */
export function provenAbsent(err: unknown, key: string): Error {
  const cause = toWesError(err);
  cause.hint = `${cause.hint ? `${cause.hint}. ` : ''}the server made no job (none of its jobs carries Idempotency-Key ${key}): submitting again is safe`;
  return cause;
}

/** A submit with no usable answer whose job the list does not show: never sent again. */
export function submitInDoubt(err: unknown, key: string, search: SearchMiss): InDoubtError {
  const known = search.kind === 'no-list' ? search.reason : `no job carrying the key is among the ${search.searched} newest on the server yet`;
  return new InDoubtError(`the submit got no usable answer (${toWesError(err).message}); it may or may not have made a job: ${known}`, {
    key,
    cause: err,
    details: { search: search.kind },
    hint: `nothing was sent again: Idempotency-Key ${key} is spent, and a new key could run the workflow twice. Look for its job with: ${findCommand(key)}`,
  });
}

/** A batch line whose submit (or an earlier run's) may have made a job that cannot be found. */
export function lineInDoubt(cause: unknown, key: string, search: SearchMiss): InDoubtError {
  const known = search.kind === 'no-list' ? search.reason : `no job carrying it is among the ${search.searched} newest on the server`;
  const why = cause === undefined ? 'an earlier run sent it and no answer named a job' : `the submit got no usable answer (${toWesError(cause).message})`;
  return new InDoubtError(`${why}; it may or may not have made a job: ${known}`, {
    key,
    cause,
    hint: `look for it with: ${findCommand(key)}; or resume with --resubmit-in-doubt to send the line again under a new key (it may then run twice)`,
  });
}

/** A given key the service refused as used, whose job the list does not show (`search` undefined: not looked for). */
export function keyReused(err: ApiError, search: SearchMiss | undefined): ApiError {
  const where = search === undefined ? '' : search.kind === 'no-list' ? ` (${search.reason}, so its job cannot be looked up)` : `; no job carrying it is among the ${search.searched} newest on the server`;
  err.hint = `Idempotency-Keys are single use (for 24 h): the service refuses any request with a key it has seen, whatever the body${where}. Once you know no job was made, submit without --idempotency-key (a new key is made), or with a new one`;
  return err;
}
