// A POST whose answer never came may still have done its work (a job created, a model run
// charged). Sent again with the same Idempotency-Key it returns that work instead of doing it
// twice, so every doubtful ending names the key and the exact command that finds the result.
import { InterruptedError, WesError, endedInDoubt, toWesError } from '../errors.js';
import { shellWord } from '../util/shell-word.js';

export { endedInDoubt };

/**
 * The error of a keyed POST that ended in doubt, with the key in `details.idempotency_key` and a
 * hint naming `command` (argument words, the key flag appended); any other error unchanged.
 */
export function withIdempotencyKey(err: unknown, key: string, command: string[], what: string): unknown {
  if (!endedInDoubt(err)) return err;
  const again = () => [...command, '--idempotency-key', key].map(shellWord).join(' ');
  // Ctrl-C is said in its own one form (render/error.ts): what may have happened, and the command that finds out.
  if (err instanceof InterruptedError) return err.tell(`${what} may have gone through (Idempotency-Key ${key})`, again(), { idempotency_key: key });
  const e = toWesError(err);
  const details = e.details !== null && typeof e.details === 'object' && !Array.isArray(e.details) ? e.details : e.details === undefined ? {} : { details: e.details };
  return new WesError(e.message, {
    exitCode: e.exitCode,
    code: e.code,
    status: e.status,
    requestId: e.requestId,
    origin: e.origin,
    details: { ...details, idempotency_key: key },
    hint: `${e.hint ? `${e.hint}. ` : ''}${what} may have gone through (Idempotency-Key ${key}); to find its result without doing it twice, run: ${again()}`,
    cause: err,
  });
}
