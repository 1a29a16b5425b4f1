// The job submit (`POST /api/v2/jobs`) under a single-use Idempotency-Key, at the client: sent
// once with the key's label in `metadata` (written here in the deployment's dialect; labels.ts
// reads labels back), and, when its answer never came, found by that label in the server's job
// list instead of being sent again: the service refuses to see a key twice and never replays an
// answer. The list is filtered by the label and walked page by page on serverless, read one page
// on the self-hosted proxy; whether a miss proves no job was made is list-dialect.ts's verdict.
// What the caller does with each outcome is the keyed send's (src/features/keyed). No printing.
import { ApiError } from '../../errors.js';
import type { JobLabels, SubmitRequest } from '../../protocol/jobs.js';
import { jsonBytes } from '../../util/exact-json-bytes.js';
import type { FetchedJob, JobsClient, ListRead, SubmitOptions } from './client.js';
import { checkJob } from './check.js';
import { DIALECTS, deploymentFromJob, deploymentFromRefusal, type ListDialect } from './deployment.js';
import { absenceVerdict, type ListWalk } from './list-dialect.js';
import type { KeySearch } from '../shared/key-search.js';
import { sleep } from '../../util/sleep.js';
import { KEY_LABEL, KEY_LABEL_PREFIX, keyOfLabels, type LabelDialect } from './labels.js';

export interface PostOptions extends SubmitOptions {
  labels?: { dialect: LabelDialect; user?: JobLabels };
}

/** A refusal of the key as already used (single use: the service never replays an answer). */
export function isKeyReuse(err: unknown): err is ApiError {
  return err instanceof ApiError && err.code === 'idempotency_key_reuse';
}

/** A server that takes no `metadata` refuses the field itself; such a refusal made nothing and released the key. */
function refusesMetadata(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 400 || err.status === 422) && (/metadata/i.test(err.message) || /^metadata_/.test(err.code ?? '')) && !isKeyReuse(err);
}

/**
 * Sends the submit with its labels in the dialect of the deployment known to answer (the proxy's
 * string while none is known). A refusal of `metadata` made nothing and released the key: the
 * dialect it teaches is remembered (so Comfy Cloud refuses one submit per base URL, ever) and the
 * submit goes again in it; a refusal that teaches nothing goes again without labels.
 */
export async function sendLabelled(client: JobsClient, request: SubmitRequest, key: string, labels: JobLabels | undefined, options: SubmitOptions = {}): Promise<FetchedJob> {
  const deployment = await client.deployment();
  const known = await deployment.current();
  const send = (dialect: LabelDialect) => postJob(client, request, key, { ...options, labels: { dialect, user: labels } });
  const dialect = known ? DIALECTS[known].labels : 'string';
  try {
    return await send(dialect);
  } catch (err) {
    if (dialect === 'none' || !refusesMetadata(err)) throw err;
    const learnt = deploymentFromRefusal(err);
    if (deployment.pinned && learnt !== undefined) throw err;
    await deployment.learn(learnt);
    const next = learnt ? DIALECTS[learnt].labels : 'none';
    if (next === dialect) throw err;
    return send(next);
  }
}

/** The label a submit carries: the user's text (if any), then the key's token, always last (a key may hold spaces). */
export function submitLabel(key: string, userLabel?: string): string {
  const token = `${KEY_LABEL_PREFIX}${key}`;
  return userLabel ? `${userLabel} ${token}` : token;
}

/** The `metadata` a submit carries in `dialect`: the user's pairs and the key's label, or nothing. */
export function submitMetadata(dialect: LabelDialect, key: string, user: JobLabels = {}): string | JobLabels | undefined {
  if (dialect === 'none') return undefined;
  if (dialect === 'map') return { ...user, [KEY_LABEL]: key };
  const text = Object.entries(user).map(([k, v]) => `${k}=${v}`).join(' ');
  return submitLabel(key, text || undefined);
}

/**
 * One `POST /api/v2/jobs` under `idempotencyKey`. `retries` overrides the HTTP layer's own (a batch
 * retries its submits itself, to know where they went). `observeBody` is told the body's size
 * before it goes and may watch its bytes go. `labels`: the key's label and the user's, written in
 * `dialect` (none: the request goes as it is).
 */
export async function postJob(client: JobsClient, request: SubmitRequest, idempotencyKey: string, options: PostOptions = {}): Promise<FetchedJob> {
  const metadata = options.labels && submitMetadata(options.labels.dialect, idempotencyKey, options.labels.user);
  const body = jsonBytes(metadata === undefined ? request : { ...request, metadata });
  const observer = await options.observeBody?.(body.length);
  let res;
  try {
    res = await client.http.json<unknown>({
      family: 'jobs',
      method: 'POST',
      url: '/api/v2/jobs',
      headers: { 'content-type': 'application/json' },
      body,
      onBodyBytes: observer && ((sent) => observer.sent(sent)),
      idempotencyKey,
      retries: options.retries,
    });
  } finally {
    observer?.done();
  }
  const job = checkJob(res);
  await (await client.deployment()).learn(deploymentFromJob(job));
  return { job, from: res.url };
}

export type JobSearch = KeySearch<FetchedJob>;

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
export async function findJobByKey(client: JobsClient, key: string, options: SearchOptions = {}): Promise<JobSearch> {
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
    if (hit) return { kind: 'found', value: await client.get(hit.id) };
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
export async function awaitJobByKey(client: JobsClient, key: string, options: SearchOptions, signal?: AbortSignal, pausesMs: readonly number[] = SEARCH_PAUSES_MS): Promise<JobSearch> {
  for (let pause = 0; ; pause++) {
    const search = await findJobByKey(client, key, options);
    if (search.kind !== 'absent' || pause === pausesMs.length) return search;
    await sleep(pausesMs[pause]!, signal);
  }
}
