// One job submit under a single-use Idempotency-Key, as the published contract has it: the key is
// sent once (the HTTP layer resends only what provably never reached the server, or what a 429
// refused), its label goes in `metadata` in the deployment's dialect (labels.ts, deployment.ts),
// and when no usable answer came back the job is looked for by that label instead of being sent
// again. No printing: the outcome says what happened.
import { ApiError, InDoubtError, endedInDoubt, toWesError } from '../../errors.js';
import type { JobLabels, SubmitRequest } from '../../protocol/jobs.js';
import type { FetchedJob, JobsClient, SubmitOptions } from './client.js';
import { awaitJobByKey, findJobByKey, type KeySearch } from './find-by-key.js';
import { DIALECTS, deploymentFromRefusal } from './deployment.js';
import { submitMetadata, type LabelDialect } from './labels.js';

type KeySearchMiss = Exclude<KeySearch, { kind: 'found' }>;

export interface KeyedSubmit {
  /** The request without `metadata`: the labels go in as the deployment takes them. */
  request: SubmitRequest;
  key: string;
  /** The user's own labels (--label), beside wes's key label. */
  labels?: JobLabels;
  /** The key came from the user: a refusal as reused looks for the job an earlier use made. */
  keyGiven: boolean;
  signal?: AbortSignal;
  /** Watches the body go (JobsClient.submit). */
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

/** The command that looks for a job by key again (for messages). */
export function findCommand(key: string): string {
  return `wes jobs find --key ${key}`;
}

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
  const send = (dialect: LabelDialect) => {
    const metadata = submitMetadata(dialect, key, labels);
    return client.submit(metadata === undefined ? request : { ...request, metadata }, key, options);
  };
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

export async function submitKeyed(client: JobsClient, s: KeyedSubmit): Promise<SubmitOutcome> {
  const sentAt = Date.now();
  try {
    return { job: await sendLabelled(client, s.request, s.key, s.labels, { observeBody: s.observeBody }), how: 'answered' };
  } catch (err) {
    if (isKeyReuse(err)) return keyUsedBefore(client, s, err);
    if (!endedInDoubt(err) || s.signal?.aborted) throw err;
    const search = await awaitJobByKey(client, s.key, { sentAt }, s.signal);
    if (search.kind === 'found') return { job: search.job, how: 'lost-answer' };
    throw notFoundAfterDoubt(err, s.key, search);
  }
}

/** A key the service has seen: the job made with it, when the list shows one; else the refusal, explained without guessing why. */
async function keyUsedBefore(client: JobsClient, s: KeyedSubmit, err: ApiError): Promise<SubmitOutcome> {
  const search = s.keyGiven ? await findJobByKey(client, s.key) : undefined;
  if (search?.kind === 'found') return { job: search.job, how: 'key-used-before' };
  const where = search === undefined ? '' : search.kind === 'no-list' ? ` (${search.reason}, so its job cannot be looked up)` : `; no job carrying it is among the ${search.searched} newest on the server`;
  err.hint = `Idempotency-Keys are single use (for 24 h): the service refuses any request with a key it has seen, whatever the body${where}. Once you know no job was made, submit without --idempotency-key (a new key is made), or with a new one`;
  throw err;
}

/** What a submit in doubt ends with: still in doubt, or (the list proves no job has the key) the real cause, safe to send again. */
function notFoundAfterDoubt(err: unknown, key: string, search: KeySearchMiss): Error {
  const cause = toWesError(err);
  if (search.kind === 'absent' && search.proven) {
    cause.hint = `${cause.hint ? `${cause.hint}. ` : ''}the server made no job (none of its jobs carries Idempotency-Key ${key}): submitting again is safe`;
    return cause;
  }
  const known = search.kind === 'no-list' ? search.reason : `no job carrying the key is among the ${search.searched} newest on the server yet`;
  return new InDoubtError(`the submit got no usable answer (${cause.message}); it may or may not have made a job: ${known}`, {
    key,
    cause: err,
    details: { search: search.kind },
    hint: `nothing was sent again: Idempotency-Key ${key} is spent, and a new key could run the workflow twice. Look for its job with: ${findCommand(key)}`,
  });
}
