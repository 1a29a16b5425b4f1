// The queue routes of the published router (v2 only), under /v2/models/{provider}/{model}/requests:
// POST submits (201 with the handle; the same Idempotency-Key and request: the same handle again,
// marked replayed; another request under the key: 409 invalid_input), GET .../{id}/status reads
// the state, GET .../{id} collects (200 the output as the run route gives it, 202 the state while
// it is not done, the request's failure as the run route would answer it, 409 cancelled, 504
// queue_timeout), PUT .../{id}/cancel asks for a cancel (202 CANCELLATION_REQUESTED, 409
// ALREADY_COMPLETED). An id of another caller or model is 404 request_not_found; an aged-out one 410.
import type { RequestContext } from '../contract.js';
import { sendJson } from '../http-kit.js';
import { requestPath } from '../../protocol/model-ids.js';
import type { RouterQueueCancelResponse, RouterQueueStatusResponse } from '../../protocol/models.js';
import type { ModelsCaller } from './auth.js';
import type { CatalogModel } from './catalog.js';
import { checkCall, modelCall, readCall } from './call-input.js';
import { keyScope } from './run.js';
import type { QueuedRequest } from './queue-book.js';
import { modelsError, sendOutcome } from './respond.js';
import type { ModelsState } from './state.js';

function stateOf(ctx: RequestContext, state: ModelsState, request: QueuedRequest): RouterQueueStatusResponse {
  const base = `${ctx.origin}${ctx.mountPrefix}`;
  // The URLs are the client's to follow: under the model's path, or the prefix this server was given.
  const prefix = ctx.state.options.queueUrlPrefix;
  const at = (action?: 'status' | 'cancel') => base + (prefix ? `${prefix}/${request.id}${action ? `/${action}` : ''}` : requestPath(request.model.entry, request.id, action));
  const body: RouterQueueStatusResponse = {
    request_id: request.id,
    status: request.status,
    status_url: at('status'),
    response_url: at(),
    cancel_url: at('cancel'),
  };
  const position = state.queue.position(request);
  if (position !== undefined) body.queue_position = position;
  if (request.outcome && request.outcome.kind !== 'ok') body.error_type = request.outcome.kind === 'invalid' ? 'invalid_input' : request.outcome.errorType;
  return body;
}

/** Retry-After while a request is not done: further back in the queue, longer. */
function pollAfter(state: ModelsState, request: QueuedRequest): Record<string, string> {
  if (request.status === 'COMPLETED') return {};
  return { 'retry-after': String(state.queue.settings.pollAfterSeconds + Math.floor((state.queue.position(request) ?? 0) / 4)) };
}

export async function submitRequest(ctx: RequestContext, state: ModelsState, caller: ModelsCaller, model: CatalogModel): Promise<void> {
  const read = await readCall(ctx);
  if (!read) return;
  const scope = read.key === undefined ? undefined : keyScope('v2', caller, model.entry.id, read.key);
  if (scope !== undefined) {
    const kept = state.queue.byKey(scope);
    const reuse = 'This Idempotency-Key was already used for a different request (the method, the path and query, or the body differ). Use a new key for a new request.';
    if ((kept && kept.fingerprint !== read.fingerprint) || state.idempotency.get(scope)) return modelsError(ctx, 409, 'invalid_input', reuse);
    if (kept?.request) return sendJson(ctx, 201, stateOf(ctx, state, kept.request), { 'idempotent-replayed': 'true' });
  }
  const checked = checkCall(ctx, state, caller, model, read, 'v2');
  if (!checked) return;
  const waiting = state.queue.waitingOf(caller.token);
  if (waiting >= state.queue.settings.backlog) {
    return modelsError(ctx, 429, 'queue_backlog_full', `You already have ${waiting} queued requests waiting (at most ${state.queue.settings.backlog}); nothing was submitted or charged. Submit again once some of them finish.`);
  }
  const request = state.queue.submit(
    caller.token,
    model,
    (signal) => model.behaviour.run(modelCall(ctx, state, caller, model, read.raw, checked.input, 'v2', AbortSignal.any([signal, state.shutdown.signal]))),
    scope === undefined ? undefined : { scope, fingerprint: read.fingerprint },
  );
  sendJson(ctx, 201, stateOf(ctx, state, request));
}

/** The caller's request of this model named by `id`, or undefined after answering 404/410. */
function requestOf(ctx: RequestContext, state: ModelsState, caller: ModelsCaller, model: CatalogModel, id: string): QueuedRequest | undefined {
  const found = state.queue.find(id, caller.token, model.entry.id);
  if (found === 'gone') {
    modelsError(ctx, 410, 'request_not_found', `Request ${id} aged out of the router's retention window; its result is gone.`);
    return undefined;
  }
  if (!found) modelsError(ctx, 404, 'request_not_found', `No request ${id} of yours under ${model.entry.id}.`);
  return found;
}

export function requestStatus(ctx: RequestContext, state: ModelsState, caller: ModelsCaller, model: CatalogModel, id: string): void {
  const request = requestOf(ctx, state, caller, model, id);
  if (request) sendJson(ctx, 200, stateOf(ctx, state, request), pollAfter(state, request));
}

export function requestResult(ctx: RequestContext, state: ModelsState, caller: ModelsCaller, model: CatalogModel, id: string): void {
  const request = requestOf(ctx, state, caller, model, id);
  if (!request) return;
  if (!request.outcome) return sendJson(ctx, 202, stateOf(ctx, state, request), pollAfter(state, request));
  sendOutcome(ctx, request.outcome, 'v2');
}

export function cancelRequest(ctx: RequestContext, state: ModelsState, caller: ModelsCaller, model: CatalogModel, id: string): void {
  const request = requestOf(ctx, state, caller, model, id);
  if (!request) return;
  const accepted = state.queue.cancel(request);
  const body: RouterQueueCancelResponse = { request_id: request.id, status: accepted ? 'CANCELLATION_REQUESTED' : 'ALREADY_COMPLETED' };
  sendJson(ctx, accepted ? 202 : 409, body);
}
