// A job submit under its Idempotency-Key with the key's label in `metadata`, in the dialect of the
// deployment (labels.ts, deployment.ts). What happens when no usable answer comes back is the
// keyed send's (src/features/keyed). No printing.
import { ApiError } from '../../errors.js';
import type { JobLabels, SubmitRequest } from '../../protocol/jobs.js';
import type { FetchedJob, JobsClient, SubmitOptions } from './client.js';
import { DIALECTS, deploymentFromRefusal } from './deployment.js';
import { submitMetadata, type LabelDialect } from './labels.js';

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
