// The command side of the local job history: what `jobs submit` (and each batch line) records,
// the statuses other job commands see, and `@last` / `@N` in place of a job id.
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { JobHistory, stateDir, type HistoryWriter } from '../../config/history.js';

export function jobHistory(f: Factory): JobHistory {
  const s = f.settings();
  return new JobHistory(stateDir(f.env), s.profile, s.baseUrl);
}

/** Best effort: a history that cannot be written never fails the job command (--verbose says why). */
function quietly(f: Factory, what: () => void): void {
  try {
    what();
  } catch (err) {
    f.io.debug(`job history not updated: ${(err as Error).message}`);
  }
}

/** Records a job this machine submitted; `source` names what was submitted (file, `-`, `batch F:LINE`). */
export function recordSubmitted(f: Factory, job: { id: string; status: string }, source: string): void {
  quietly(f, () => jobHistory(f).recordSubmitted(job.id, job.status, source));
}

/**
 * Records many submissions in a row (a batch's lines) through one open writer: each line written at
 * once, fsynced every quarter second and on close. Best effort: after a failure it stops trying.
 */
export function batchHistory(f: Factory): { recordSubmitted(job: { id: string; status: string }, source: string): void; close(): void } {
  let writer: HistoryWriter | undefined;
  let broken = false;
  return {
    recordSubmitted(job, source) {
      if (broken) return;
      quietly(f, () => {
        try {
          (writer ??= jobHistory(f).writer()).recordSubmitted(job.id, job.status, source);
        } catch (err) {
          broken = true;
          throw err;
        }
      });
    },
    close: () => quietly(f, () => writer?.close()),
  };
}

/** Notes the status a command saw, for a job that is in the history. */
export function recordStatus(f: Factory, job: { id: string; status: string }): void {
  quietly(f, () => jobHistory(f).recordStatus(job.id, job.status));
}

const REF = /^@(last|[1-9]\d{0,5})$/;

/** A job id as given, or `@last` / `@N` (the N-th latest submission; @1 is @last) from the history. */
export function resolveJobRef(f: Factory, arg: string): string {
  if (!arg.startsWith('@')) return arg;
  const m = REF.exec(arg);
  if (!m) throw new UsageError(`${arg} is not a job reference`, 'use a job id, @last, or @N for the N-th latest job you submitted (@1 is @last); list them with `wes jobs list`');
  const n = m[1] === 'last' ? 1 : Number(m[1]);
  const entries = jobHistory(f).entries();
  const entry = entries[n - 1];
  if (!entry) {
    const s = f.settings();
    throw new UsageError(
      entries.length === 0 ? `no job submitted from this machine yet for profile ${s.profile} at ${s.baseUrl}` : `${arg}: only ${entries.length} job(s) in the history of profile ${s.profile} at ${s.baseUrl}`,
      'submit one with `wes jobs submit`, or list them with `wes jobs list`',
    );
  }
  return entry.id;
}
