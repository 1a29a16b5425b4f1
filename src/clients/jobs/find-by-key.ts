// Finds the job a submit made when its answer never came. Idempotency-Keys are single use: the
// service refuses to see a key twice and never replays an answer, so a submit in doubt cannot be
// asked again. Instead every submit carries a label naming its key (labels.ts), and the server's
// job list (where it has one) is searched for it: filtered by that label and walked page by page
// on serverless, the newest page on the self-hosted proxy. Whether a miss proves that no job was
// made is list-dialect.ts's verdict.
import { ApiError } from '../../errors.js';
import { sleep } from '../../util/sleep.js';
import type { FetchedJob, JobsClient, ListRead } from './client.js';
import { KEY_LABEL, keyOfLabels } from './labels.js';
import { absenceVerdict, type ListDialect, type ListWalk } from './list-dialect.js';
import { DIALECTS } from './deployment.js';

export type KeySearch =
  | { kind: 'found'; job: FetchedJob }
  /** The list was read and holds no job with the key; `proven`: the list covers the time the key was sent. */
  | { kind: 'absent'; proven: boolean; searched: number }
  /** The server offers no job list (404, 405, 501), or reading it failed. */
  | { kind: 'no-list'; reason: string };

export interface SearchOptions {
  /** When the key was first sent (ms since the epoch), if known. */
  sentAt?: number;
  /** The deployment's list dialect, when known (a serverless last page carries no field saying so). */
  dialect?: ListDialect;
}

const LIST_LIMIT = 100;
/** Pages one search walks at most: filtered by the key's label, a walk is a page or two. */
const MAX_PAGES = 20;

function isListMissing(err: unknown): boolean {
  return err instanceof ApiError && err.origin === 'jobs' && (err.status === 404 || err.status === 405 || err.status === 501);
}

/** Looks for the job labelled with `key`; a miss says whether the list proves that the server made none. */
export async function findJobByKey(client: JobsClient, key: string, options: SearchOptions = {}): Promise<KeySearch> {
  const known = await (await client.deployment()).current();
  const dialect = options.dialect ?? (known ? DIALECTS[known].list : undefined);
  if (dialect === 'none') return { kind: 'no-list', reason: `${DIALECTS.cloud.name} offers no job list to search` };
  const createdAt: (string | undefined)[] = [];
  let read: ListRead | undefined;
  let firstAsked: number | undefined;
  for (let pages = 0; pages < MAX_PAGES && (read === undefined || read.page.nextCursor !== undefined); pages++) {
    try {
      read = await client.listPage({ limit: LIST_LIMIT, cursor: read?.page.nextCursor, labels: { [KEY_LABEL]: key } }, dialect === 'cursor');
    } catch (err) {
      if (isListMissing(err)) return { kind: 'no-list', reason: 'this server offers no job list to search' };
      return { kind: 'no-list', reason: `reading the job list failed: ${(err as Error).message}` };
    }
    firstAsked ??= read.askedAt;
    const hit = read.page.jobs.find((j) => keyOfLabels(j.labels) === key);
    if (hit) return { kind: 'found', job: await client.get(hit.id) };
    for (const j of read.page.jobs) createdAt.push(j.createdAt);
    if (read.page.dialect === 'truncated') break;
  }
  const page = read!.page;
  const walk: ListWalk = { dialect: page.dialect, asked: LIST_LIMIT, count: page.jobs.length, truncated: page.truncated, reachedEnd: page.dialect === 'cursor' && page.nextCursor === undefined, createdAt };
  const verdict = absenceVerdict(walk, { sentAt: options.sentAt, askedAt: firstAsked!, answeredAt: read!.answeredAt, serverDate: read!.serverDate });
  return { kind: 'absent', proven: verdict.proven, searched: createdAt.length };
}

/** Pauses between searches for a job that may still be in the making (after a 5xx). */
export const SEARCH_PAUSES_MS: readonly number[] = [300, 1000];

/**
 * findJobByKey, asked again after each pause while the job is not there yet: after a 5xx the
 * server may still be making it. Stops at once where there is no list, and when `signal` aborts.
 */
export async function awaitJobByKey(client: JobsClient, key: string, options: SearchOptions, signal?: AbortSignal, pausesMs: readonly number[] = SEARCH_PAUSES_MS): Promise<KeySearch> {
  for (let pause = 0; ; pause++) {
    const search = await findJobByKey(client, key, options);
    if (search.kind !== 'absent' || pause === pausesMs.length) return search;
    await sleep(pausesMs[pause]!, signal);
  }
}
