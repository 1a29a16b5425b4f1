// The job submit (`POST /api/v2/jobs`): never sent without its Idempotency-Key, and with the key's
// label in `metadata`, in the dialect of the deployment (labels.ts, deployment.ts). The key comes
// in here once and reaches the header from here. What happens when no usable answer comes back is
// the keyed send's (src/features/keyed). No printing.
import { ApiError } from '../../errors.js';
import type { JobLabels, SubmitRequest } from '../../protocol/jobs.js';
import { stringifyJsonExact } from '../../util/exact-json.js';
import type { FetchedJob, JobsClient, SubmitOptions } from './client.js';
import { checkJob } from './check.js';
import { DIALECTS, deploymentFromJob, deploymentFromRefusal } from './deployment.js';
import { submitMetadata, type LabelDialect } from './labels.js';

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

/**
 * One `POST /api/v2/jobs` under `idempotencyKey`. `retries` overrides the HTTP layer's own (a batch
 * retries its submits itself, to know where they went). `observeBody` is told the body's size
 * before it goes and may watch its bytes go. `labels`: the key's label and the user's, written in
 * `dialect` (none: the request goes as it is).
 */
export async function postJob(client: JobsClient, request: SubmitRequest, idempotencyKey: string, options: PostOptions = {}): Promise<FetchedJob> {
  const metadata = options.labels && submitMetadata(options.labels.dialect, idempotencyKey, options.labels.user);
  const body = Buffer.from(stringifyJsonExact(metadata === undefined ? request : { ...request, metadata }), 'utf8');
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
