// POST /{v1,v2}/models/{provider}/{model}: validate, admit against the credential's limits, run the
// model, and hold the connection up to the router deadline. With an Idempotency-Key the call is
// kept, so a retry collects it instead of running it again:
// - v1 (the interface): keyed per credential and model; a retry with the same body collects the
//   generation (waiting for it, up to the deadline); another body is 422 idempotency_key_reuse.
// - v2 (the published router): keyed per credential (the workspace's keyspace) over the method,
//   path, query and body; a retry while another call of the key is being answered is 409
//   concurrency_limit_exceeded with Retry-After; a collected or recorded answer carries
//   `Idempotent-Replayed: true` (not billed again); another request under the key is 409
//   invalid_input. A success carries its price (X-Comfy-Credits-Used) and the committed-spend
//   figures of the gate that admitted it.
import type { RequestContext } from '../contract.js';
import type { RouterApi } from '../../protocol/models.js';
import type { ModelsCaller } from './auth.js';
import type { CatalogModel } from './catalog.js';
import { checkCall, digest, modelCall, readCall } from './call-input.js';
import { IdempotencyStore, isTransient, type KeptCall } from './idempotency.js';
import { admit } from './limits.js';
import type { ModelOutcome } from './stock/types.js';
import { invalidInput, modelsError, sendOutcome } from './respond.js';
import { headerName } from '../core/names.js';
import { dispatchRun, isDispatchRefusal, NATIVE_DISPATCH, readDispatch } from './providers.js';
import type { ModelsState } from './state.js';

const RETRY_AFTER_SECONDS = '1';
const TIMED_OUT = Symbol('timed out');

function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The keyspace of a generation: v1 per credential and model, v2 per credential (see the top). */
export function keyScope(api: RouterApi, caller: ModelsCaller, modelId: string, key: string): string {
  return api === 'v1' ? IdempotencyStore.scope(caller.token, modelId, key) : IdempotencyStore.scope(caller.token, '*v2', key);
}

interface Delivery {
  api: RouterApi;
  keyed: boolean;
  /** Served from the key's record: marked on v2. */
  replayed: boolean;
  /** Headers of a v2 success (price, spend figures). */
  success: Record<string, string>;
  /** The call's record, whose answering call is counted while it is held. */
  kept?: KeptCall;
}

async function deliver(ctx: RequestContext, state: ModelsState, outcome: Promise<ModelOutcome>, d: Delivery): Promise<void> {
  if (d.kept) d.kept.attached = (d.kept.attached ?? 0) + 1;
  let result: ModelOutcome | typeof TIMED_OUT;
  try {
    result = await within(outcome, state.deadlineMs);
  } finally {
    if (d.kept) d.kept.attached = (d.kept.attached ?? 1) - 1;
  }
  if (result !== TIMED_OUT) {
    const marker: Record<string, string> = d.api === 'v2' && d.replayed ? { 'idempotent-replayed': 'true' } : {};
    return sendOutcome(ctx, result, d.api, { ...(result.kind === 'ok' ? d.success : {}), ...marker });
  }
  if (d.keyed) {
    modelsError(ctx, 504, 'deadline_exceeded',
      `The router stopped waiting after ${state.deadlineMs} ms; the generation is still running at the provider. Retry with the same Idempotency-Key to collect it.`,
      { 'retry-after': RETRY_AFTER_SECONDS });
  } else {
    modelsError(ctx, 504, 'deadline_exceeded',
      `The router stopped waiting after ${state.deadlineMs} ms. Nothing was rejected; the same request may be retried (send an Idempotency-Key to collect a generation instead of starting another).`);
  }
}

/** A same-key call: answered from the record, or refused; false when the key is new. */
async function answeredByKey(ctx: RequestContext, state: ModelsState, api: RouterApi, kept: KeptCall, fingerprint: string, bodyDigest: string): Promise<void> {
  if (api === 'v1') {
    if (kept.bodyDigest !== bodyDigest) {
      return invalidInput(ctx, [{ loc: ['header', 'Idempotency-Key'], msg: 'This Idempotency-Key was already used with a different request body', type: 'idempotency_key_reuse' }]);
    }
    return deliver(ctx, state, kept.outcome, { api, keyed: true, replayed: true, success: {} });
  }
  if (kept.bodyDigest !== fingerprint) {
    return modelsError(ctx, 409, 'invalid_input', 'This Idempotency-Key was already used for a different request (the method, the path and query, or the body differ). Use a new key for a new request.');
  }
  if ((kept.attached ?? 0) > 0) {
    return modelsError(ctx, 409, 'concurrency_limit_exceeded', 'Another call with this Idempotency-Key is still in flight. Re-send the same key after Retry-After seconds to collect its result.', { 'retry-after': RETRY_AFTER_SECONDS });
  }
  return deliver(ctx, state, kept.outcome, { api, keyed: true, replayed: true, success: kept.success ?? {}, kept });
}

export async function runModel(ctx: RequestContext, state: ModelsState, caller: ModelsCaller, model: CatalogModel, api: RouterApi): Promise<void> {
  const id = model.entry.id;
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) ctx.state.options.log?.(`router client_disconnected ${ctx.requestId} ${id}`);
  });
  const read = await readCall(ctx);
  if (!read) return;
  const bodyDigest = digest(read.raw);
  const scope = read.key === undefined ? undefined : keyScope(api, caller, id, read.key);
  if (scope !== undefined) {
    const kept = state.idempotency.get(scope);
    if (kept) return answeredByKey(ctx, state, api, kept, read.fingerprint, bodyDigest);
    if (api === 'v2' && state.queue.keyTaken(scope)) {
      return modelsError(ctx, 409, 'invalid_input', 'This Idempotency-Key was already used for a different request (a queued submit). Use a new key for a new request.');
    }
  }

  // The provider controls are the published route's; a refusal of them dispatched nothing.
  const dispatch = api === 'v2' ? readDispatch(ctx, id) : NATIVE_DISPATCH;
  if (isDispatchRefusal(dispatch)) return modelsError(ctx, dispatch.status, dispatch.errorType, dispatch.detail);
  const checked = checkCall(ctx, state, caller, model, read, api, dispatch.strict);
  if (!checked) return;
  const admission = admit(state.usage, caller.token, checked.cost, ctx.state.options.routerLimits);
  if (!admission.ok) return modelsError(ctx, 429, 'concurrency_limit_exceeded', admission.detail, admission.headers);

  const outcome = dispatchRun(id, dispatch, checked.input, () => model.behaviour.run(modelCall(ctx, state, caller, model, read.raw, checked.input, api)))
    .catch((err: unknown): ModelOutcome => {
      ctx.state.options.log?.(`router internal_error ${ctx.requestId} ${id}: ${(err as Error).message}`);
      return { kind: 'error', status: 500, errorType: 'internal_error', detail: 'The router failed while running the model.' };
    })
    .finally(admission.release);
  const success = api === 'v2' ? { [headerName(ctx.state, 'creditsUsed')]: String(checked.cost), ...admission.headers } : {};
  let kept: KeptCall | undefined;
  if (scope !== undefined) {
    kept = { bodyDigest: api === 'v1' ? bodyDigest : read.fingerprint, outcome, keptAt: Date.now(), size: read.raw.length, success };
    state.idempotency.keep(scope, kept);
    void outcome.then((settled) => {
      if (isTransient(settled)) state.idempotency.forget(scope);
    });
  }
  await deliver(ctx, state, outcome, { api, keyed: scope !== undefined, replayed: false, success, kept: api === 'v2' ? kept : undefined });
}
