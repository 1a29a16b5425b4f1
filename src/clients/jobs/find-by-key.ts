// Finds the job a submit made when its answer never came. Idempotency-Keys are single use: the
// service refuses to see a key twice and never replays an answer, so a submit in doubt cannot be
// asked again. Instead every submit carries a `metadata` label naming its key, and the server's
// job list (where it has one) is searched for that label.
import { ApiError } from '../../errors.js';
import type { Job } from '../../protocol/jobs.js';
import { keyOfLabel } from './label.js';
import { sleep } from '../../util/sleep.js';
import type { FetchedJob, JobsClient } from './client.js';

export type KeySearch =
  | { kind: 'found'; job: FetchedJob }
  /** The list was read and holds no job with the key; `proven`: the list covers the time the key was sent. */
  | { kind: 'absent'; proven: boolean; searched: number }
  /** The server offers no job list (404, 405, 501), or reading it failed. */
  | { kind: 'no-list'; reason: string };

/**
 * How much earlier than the send (in the server's clock) the oldest listed job must have been made
 * for the list to cover the send: the server's clock is read from the answer's Date header (whole
 * seconds, plus the time of the exchange); without one, clocks may disagree by minutes.
 */
const SKEW_MARGIN_MS = 5_000;
const NO_CLOCK_MARGIN_MS = 10 * 60 * 1000;
const LIST_LIMIT = 100;

function isListMissing(err: unknown): boolean {
  return err instanceof ApiError && err.origin === 'jobs' && (err.status === 404 || err.status === 405 || err.status === 501);
}

/**
 * Looks for the job labelled with `key` among the newest jobs on the server. `sentAt` (ms since
 * the epoch) says when the key was first sent: a list that reaches back before it, or that is not
 * truncated, proves that no job has the key (the server made none).
 */
export async function findJobByKey(client: JobsClient, key: string, sentAt?: number): Promise<KeySearch> {
  let read;
  const asked = Date.now();
  try {
    read = await client.list({ limit: LIST_LIMIT });
  } catch (err) {
    if (isListMissing(err)) return { kind: 'no-list', reason: 'this server offers no job list to search' };
    return { kind: 'no-list', reason: `reading the job list failed: ${(err as Error).message}` };
  }
  const { list, from, serverDate } = read;
  const job = list.jobs.find((j) => keyOfLabel(j.metadata) === key);
  if (job) return { kind: 'found', job: { job, from } };
  const serverNow = Date.parse(serverDate ?? '');
  // The send's time in the server's clock (what created_at is written in), and how sure that is.
  const clock = Number.isFinite(serverNow) && sentAt !== undefined ? { sentAt: sentAt + (serverNow - asked), margin: SKEW_MARGIN_MS + (Date.now() - asked) } : { sentAt, margin: NO_CLOCK_MARGIN_MS };
  return { kind: 'absent', proven: !list.truncated || reachesBack(list.jobs, clock.sentAt, clock.margin), searched: list.jobs.length };
}

/** Whether the oldest job listed was made before `sentAt`, by more than `margin`: the list covers the send. */
function reachesBack(jobs: Job[], sentAt: number | undefined, margin: number): boolean {
  if (sentAt === undefined || jobs.length === 0) return false;
  const oldest = Math.min(...jobs.map((j) => Date.parse(j.created_at)).filter(Number.isFinite));
  return Number.isFinite(oldest) && oldest < sentAt - margin;
}

/** Pauses between searches for a job that may still be in the making (after a 5xx). */
export const SEARCH_PAUSES_MS: readonly number[] = [300, 1000];

/**
 * findJobByKey, asked again after each pause while the job is not there yet: after a 5xx the
 * server may still be making it. Stops at once where there is no list, and when `signal` aborts.
 */
export async function awaitJobByKey(client: JobsClient, key: string, sentAt: number, signal?: AbortSignal, pausesMs: readonly number[] = SEARCH_PAUSES_MS): Promise<KeySearch> {
  let search = await findJobByKey(client, key, sentAt);
  for (const ms of pausesMs) {
    if (search.kind !== 'absent') return search;
    await sleep(ms, signal);
    search = await findJobByKey(client, key, sentAt);
  }
  return search;
}
