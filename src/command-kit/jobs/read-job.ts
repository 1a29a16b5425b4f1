// How a job command reads the job it was given: the reference resolved (@last, @N, the start of an
// id from the history), the job read (an `expired` read while its retention runs on is read again,
// see expired-race.ts), its status noted in the history; a job the service does not know is said
// with what the user most likely meant.
import type { Factory } from '../../factory.js';
import { ApiError } from '../../errors.js';
import type { FetchedJob, JobsClient } from '../../clients/jobs/client.js';
import { settleExpired } from '../../clients/jobs/expired-race.js';
import { nthLatest, recordStatus, resolveJobRef } from '../../features/jobs/history.js';

/** What the help of every verb that takes a job id says of it. */
export const JOB_ID_HELP = 'ID: a job id, or @last (the latest job submitted from this machine for this profile and base URL), or @N (the N-th latest; @1 is @last); see `wes jobs list`.';

/** Words people type for "the latest job" (or the N-th), which only the @ form means. */
const REF_WITHOUT_AT = /^(last|latest|[1-9]\d{0,5})$/i;

/** The hint for a 404 of the id `arg` resolved to, or undefined when the usual one fits. */
export function notFoundHint(arg: string, id: string): string | undefined {
  const m = REF_WITHOUT_AT.exec(arg);
  if (m) {
    const ref = /^\d/.test(arg) ? `@${arg}` : '@last';
    return `${arg} is not a job id: for ${ref === '@last' ? 'the latest job' : nthLatest(Number(arg))} you submitted write ${ref} (\`wes jobs list\` shows them)`;
  }
  if (id === arg && arg.length < 36) return `no job of this machine's history starts with ${arg}, and the service knows no job ${arg}: give the whole id (\`wes jobs list\` shows the ones submitted from here)`;
  return undefined;
}

/** A 404 with the hint of notFoundHint; any other error as it is. */
export function withNotFoundHint(err: unknown, arg: string, id: string): unknown {
  if (err instanceof ApiError && err.status === 404 && err.code !== 'not_job_api') {
    const hint = notFoundHint(arg, id);
    if (hint) err.hint = hint;
  }
  return err;
}

/** Resolves `arg` to a job id and reads `read(id)`, a 404 said well; the id comes back with the answer. */
export async function readByRef<T>(f: Factory, arg: string, read: (id: string) => Promise<T>): Promise<{ id: string; value: T }> {
  const id = resolveJobRef(f, arg, (line) => f.io.debug(line));
  try {
    return { id, value: await read(id) };
  } catch (err) {
    throw withNotFoundHint(err, arg, id);
  }
}

/** The job `arg` names, as the service has it now; its status recorded. */
export async function readJob(f: Factory, client: JobsClient, arg: string): Promise<FetchedJob> {
  const { value: first } = await readByRef(f, arg, (id) => client.get(id));
  const job = await settleExpired(first, () => client.refresh(first), f.signal);
  recordStatus(f, job.job, (line) => f.io.debug(line));
  return job;
}
