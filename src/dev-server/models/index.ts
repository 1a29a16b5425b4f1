// The models API of the dev-server: the model router under /v1/models (the interface's routes)
// and /v2/models (the routes the maker has published since, with queued delivery). Behaviour and
// test triggers are listed in README.md next to this file.
import type { RequestContext, RouteHandler } from '../contract.js';
import { BodyError } from '../http-kit.js';
import { modelsPath, segmentProblem, type SegmentKind } from '../../protocol/model-ids.js';
import type { RouterApi, RouterValidationErrorDetail } from '../../protocol/models.js';
import { authenticate, entitled, type ModelsCaller } from './auth.js';
import { sendSchema, showModel } from './detail.js';
import { listModels } from './list.js';
import { cancelRequest, requestResult, requestStatus, submitRequest } from './queue.js';
import { invalidInput, modelsError, stampRequestId } from './respond.js';
import { runModel } from './run.js';
import { modelsState, type ModelsState } from './state.js';
import { suggestIds } from './suggest.js';
import type { CatalogModel } from './catalog.js';

export { closeModels, configureQueue, rebuildCatalog, setModelsDeadline, modelsState } from './state.js';
export { handleControl as handleModelsControl } from './control.js';

function methodNotAllowed(ctx: RequestContext, allow: string): void {
  modelsError(ctx, 405, 'invalid_input', `${ctx.req.method} is not allowed here; use ${allow}.`, { allow });
}

function decodeSegments(rest: string): string[] | undefined {
  try {
    return rest.split('/').map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

/** What follows {provider}/{model}: nothing, `openapi.json`, or (v2) the queue's `requests[/{id}[/status|/cancel]]`. */
type Tail = { kind: 'model' } | { kind: 'schema' } | { kind: 'requests' } | { kind: 'request'; id: string; action: 'result' | 'status' | 'cancel' };

function tailOf(api: RouterApi, rest: string[]): Tail | undefined {
  if (rest.length === 0) return { kind: 'model' };
  if (rest.length === 1 && rest[0] === 'openapi.json') return { kind: 'schema' };
  if (api === 'v1' || rest[0] !== 'requests') return undefined;
  if (rest.length === 1) return { kind: 'requests' };
  const action = rest.length === 2 ? 'result' : rest[2];
  if (rest.length > 3 || (action !== 'result' && action !== 'status' && action !== 'cancel')) return undefined;
  return { kind: 'request', id: rest[1]!, action };
}

function allowed(ctx: RequestContext, method: string, allow: string): boolean {
  if (ctx.req.method === method) return true;
  methodNotAllowed(ctx, allow);
  return false;
}

async function serveTail(ctx: RequestContext, state: ModelsState, caller: ModelsCaller, model: CatalogModel, api: RouterApi, tail: Tail): Promise<void> {
  switch (tail.kind) {
    case 'schema':
      return allowed(ctx, 'GET', 'GET') ? sendSchema(ctx, state, model, api) : undefined;
    case 'model':
      if (ctx.req.method === 'GET') return showModel(ctx, model, api);
      if (ctx.req.method === 'POST') return runModel(ctx, state, caller, model, api);
      return methodNotAllowed(ctx, 'GET, POST');
    case 'requests':
      return allowed(ctx, 'POST', 'POST') ? submitRequest(ctx, state, caller, model) : undefined;
    case 'request':
      if (tail.action === 'cancel') return allowed(ctx, 'PUT', 'PUT') ? cancelRequest(ctx, state, caller, model, tail.id) : undefined;
      if (!allowed(ctx, 'GET', 'GET')) return;
      return tail.action === 'status' ? requestStatus(ctx, state, caller, model, tail.id) : requestResult(ctx, state, caller, model, tail.id);
  }
}

async function routeModel(ctx: RequestContext, state: ModelsState, caller: ModelsCaller, api: RouterApi, segments: string[], tail: Tail): Promise<void> {
  const [provider, model] = segments as [string, string];
  const problems: RouterValidationErrorDetail[] = [];
  for (const [kind, value] of [['provider', provider], ['model', model]] as Array<[SegmentKind, string]>) {
    const problem = segmentProblem(kind, value);
    if (problem) problems.push({ loc: ['path', kind], msg: problem, type: 'string_pattern_mismatch', input: value });
  }
  if (problems.length > 0) {
    // Only the call route has a 422; on the other routes a malformed id names no model.
    if (ctx.req.method === 'POST' && tail.kind === 'model') return invalidInput(ctx, problems);
    return modelsError(ctx, 404, 'model_not_found', `No runnable model "${provider}/${model}": ${problems.map((p) => p.msg).join('; ')}`);
  }
  const id = `${provider}/${model}`;
  const found = state.catalog.byId.get(id);
  if (!found) {
    const suggestions = suggestIds(id, state.catalog.byId.keys());
    const hint = suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : '';
    return modelsError(ctx, 404, 'model_not_found', `No runnable model "${id}".${hint}`);
  }
  if (!entitled(ctx, caller, provider)) return;
  return serveTail(ctx, state, caller, found, api, tail);
}

function routesOf(api: RouterApi): string {
  const base = `${modelsPath(api)}/{provider}/{model}`;
  return api === 'v1' ? `${base} and ${base}/openapi.json` : `${base}, ${base}/openapi.json and ${base}/requests[/{request_id}[/status|/cancel]]`;
}

async function route(ctx: RequestContext, api: RouterApi): Promise<void> {
  const caller = authenticate(ctx);
  if (!caller) return;
  const state = modelsState(ctx.state);
  const prefix = modelsPath(api);
  if (ctx.path === prefix) {
    return ctx.req.method === 'GET' ? listModels(ctx, state) : methodNotAllowed(ctx, 'GET');
  }
  const segments = decodeSegments(ctx.path.slice(prefix.length + 1));
  const tail = segments && segments.length >= 2 ? tailOf(api, segments.slice(2)) : undefined;
  if (!segments || !tail) return modelsError(ctx, 404, 'model_not_found', `No such route: model routes are ${routesOf(api)}.`);
  return routeModel(ctx, state, caller, api, segments, tail);
}

/** A queued request at the URLs queueUrlPrefix gave it: {prefix}/{id}[/status|/cancel]. */
async function routeQueueLink(ctx: RequestContext, prefix: string): Promise<void> {
  const caller = authenticate(ctx);
  if (!caller) return;
  const state = modelsState(ctx.state);
  const [id = '', action, ...more] = ctx.path.slice(prefix.length + 1).split('/');
  const model = state.queue.modelOf(id);
  if (!model || more.length > 0 || (action !== undefined && action !== 'status' && action !== 'cancel')) {
    return modelsError(ctx, 404, 'request_not_found', `No request ${id} of yours at ${prefix}.`);
  }
  if (action === 'cancel') return allowed(ctx, 'PUT', 'PUT') ? cancelRequest(ctx, state, caller, model, id) : undefined;
  if (!allowed(ctx, 'GET', 'GET')) return;
  return action === 'status' ? requestStatus(ctx, state, caller, model, id) : requestResult(ctx, state, caller, model, id);
}

function apiOf(path: string): RouterApi | undefined {
  for (const api of ['v1', 'v2'] as const) {
    const prefix = modelsPath(api);
    if (path === prefix || path.startsWith(`${prefix}/`)) return api;
  }
  return undefined;
}

export const handleModels: RouteHandler = async (ctx) => {
  const linkPrefix = ctx.state.options.queueUrlPrefix;
  const atLink = linkPrefix !== '' && ctx.path.startsWith(`${linkPrefix}/`);
  const api = atLink ? 'v2' : apiOf(ctx.path);
  if (!api) return false;
  stampRequestId(ctx);
  try {
    await (atLink ? routeQueueLink(ctx, linkPrefix) : route(ctx, api));
  } catch (err) {
    if (ctx.res.headersSent) {
      ctx.res.destroy();
    } else if (err instanceof BodyError) {
      modelsError(ctx, err.status, 'invalid_input', err.message);
    } else {
      ctx.state.options.log?.(`router internal_error ${ctx.requestId}: ${(err as Error).stack ?? err}`);
      modelsError(ctx, 500, 'internal_error', 'The router failed unexpectedly.');
    }
  }
  return true;
};
