// The local job history as the job commands and use cases use it: what `jobs submit` (and each
// batch line) records, the statuses other job commands see, and `@last` / `@N` in place of a job
// id. Best effort where it writes: `debug` says (with --verbose) why a write did not happen.
import { UsageError } from '../../errors.js';
import { JobHistory, stateDir, type HistoryWriter } from '../../config/history.js';
import type { FeatureContext } from '../context.js';

/** Where the history is: the state folder, the profile and base URL of the command's settings. */
export type HistoryPlace = Pick<FeatureContext, 'env' | 'settings'>;
type Debug = (line: string) => void;

export function jobHistory(f: HistoryPlace): JobHistory {
  const s = f.settings();
  return new JobHistory(stateDir(f.env), s.profile, s.baseUrl);
}

/** Best effort: a history that cannot be written never fails the job command (--verbose says why). */
function quietly(debug: Debug, what: () => void): void {
  try {
    what();
  } catch (err) {
    debug(`job history not updated: ${(err as Error).message}`);
  }
}

/** Records a job this machine submitted; `source` names what was submitted (file, `-`, `batch F:LINE`). */
export function recordSubmitted(f: HistoryPlace, job: { id: string; status: string }, source: string, debug: Debug): void {
  quietly(debug, () => jobHistory(f).recordSubmitted(job.id, job.status, source));
}

/** A batch's history: its submissions, and the statuses its follows learn. */
export interface BatchHistory {
  recordSubmitted(job: { id: string; status: string }, source: string): void;
  recordStatus(job: { id: string; status: string }): void;
  close(): void;
}

/**
 * Records many lines in a row (a batch's submissions and statuses) through one open writer: each
 * line written at once, fsynced every quarter second and on close. Best effort: after a failure
 * it stops trying.
 */
export function batchHistory(f: HistoryPlace, debug: Debug): BatchHistory {
  let history: JobHistory | undefined;
  let writer: HistoryWriter | undefined;
  let broken = false;
  const write = (what: (h: JobHistory, w: () => HistoryWriter) => void) => {
    if (broken) return;
    quietly(debug, () => {
      try {
        history ??= jobHistory(f);
        what(history, () => (writer ??= history!.writer()));
      } catch (err) {
        broken = true;
        throw err;
      }
    });
  };
  return {
    recordSubmitted: (job, source) => write((_, w) => w().recordSubmitted(job.id, job.status, source)),
    recordStatus: (job) =>
      write((h, w) => {
        const line = h.statusLine(job.id, job.status);
        if (line) w().append(line);
      }),
    close: () => quietly(debug, () => writer?.close()),
  };
}

/** Notes the status a command saw, for a job that is in the history. */
export function recordStatus(f: HistoryPlace, job: { id: string; status: string }, debug: Debug): void {
  quietly(debug, () => jobHistory(f).recordStatus(job.id, job.status));
}

const REF = /^@(last|[1-9]\d{0,5})$/;
const WHOLE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Candidates listed when a prefix is ambiguous. */
const CANDIDATES_SHOWN = 5;
/** "the latest job", "the 2nd latest job", ... */
export function nthLatest(n: number): string {
  if (n === 1) return 'the latest job';
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `the ${n}${suffix} latest job`;
}

/** The shortest start of an id that picks a job, as git asks of abbreviated ids: `9` must not pick (and cancel) job 957d…. */
export const MIN_PREFIX = 4;

/**
 * A job id as given; `@last` / `@N` (the N-th latest submission; @1 is @last) from the history; or
 * the start of an id, at least MIN_PREFIX characters (progress lines show the first 8), that one job of the history has.
 */
export function resolveJobRef(f: HistoryPlace, arg: string, debug: Debug): string {
  if (!arg.startsWith('@')) return byPrefix(f, arg, debug);
  const m = REF.exec(arg);
  if (!m) throw new UsageError(`${arg} is not a job reference`, 'use a job id, @last, or @N for the N-th latest job you submitted (@1 is @last); list them with `wes jobs list`');
  const n = m[1] === 'last' ? 1 : Number(m[1]);
  const { entries, total } = jobHistory(f).newest(n);
  const entry = entries[n - 1];
  if (!entry) {
    const s = f.settings();
    throw new UsageError(
      total === 0 ? `no job submitted from this machine yet for profile ${s.profile} at ${s.baseUrl}` : `${arg}: only ${total} job(s) in the history of profile ${s.profile} at ${s.baseUrl}`,
      'submit one with `wes jobs submit`, or list them with `wes jobs list`',
    );
  }
  return entry.id;
}

/** The one job of the history whose id starts with `arg`; `arg` itself when it is a whole id, or no job's start. */
function byPrefix(f: HistoryPlace, arg: string, debug: Debug): string {
  if (WHOLE_UUID.test(arg)) return arg;
  let ids: string[];
  try {
    ids = jobHistory(f).idsStartingWith(arg);
  } catch (err) {
    debug(`job history not read: ${(err as Error).message}`);
    return arg;
  }
  if (ids.length === 0 || ids.includes(arg)) return arg;
  if (arg.length < MIN_PREFIX) {
    const nth = /^[1-9]\d*$/.test(arg) ? `; for ${nthLatest(Number(arg))} you submitted write @${arg}` : '';
    throw new UsageError(
      `${arg} is too short to pick a job: the start of an id needs at least ${MIN_PREFIX} characters (${ids.length} job(s) of the history start with ${arg})`,
      `give at least ${MIN_PREFIX} characters of the id, or the whole id (\`wes jobs list\` shows them)${nth}`,
    );
  }
  if (ids.length === 1) {
    debug(`${arg}: job ${ids[0]} of the history`);
    return ids[0]!;
  }
  const shown = ids.slice(0, CANDIDATES_SHOWN).join(', ');
  const more = ids.length > CANDIDATES_SHOWN ? ` and ${ids.length - CANDIDATES_SHOWN} more` : '';
  throw new UsageError(`${arg} is the start of ${ids.length} jobs in the history: ${shown}${more}`, 'give more of the id, or the whole id (`wes jobs list` shows them)');
}
