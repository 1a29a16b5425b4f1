// The models API of the dev-server: the model router under /v1/models. Behaviour and test triggers
// are listed in README.md next to this file.
import type { RequestContext, RouteHandler } from '../contract.js';
import { BodyError } from '../http-kit.js';
import { segmentProblem, type SegmentKind } from '../../protocol/model-ids.js';
import type { RouterValidationErrorDetail } from '../../protocol/models.js';
import { authenticate, entitled, type ModelsCaller } from './auth.js';
import { sendSchema, showModel } from './detail.js';
import { listModels } from './list.js';
import { invalidInput, modelsError, stampRequestId } from './respond.js';
import { runModel } from './run.js';
import { modelsState, type ModelsState } from './state.js';
import { suggestIds } from './suggest.js';

export { closeModels, rebuildCatalog, setModelsDeadline, modelsState } from './state.js';
export { handleControl as handleModelsControl } from './control.js';

const PREFIX = '/v1/models';

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

async function routeModel(ctx: RequestContext, state: ModelsState, caller: ModelsCaller, segments: string[]): Promise<void> {
  const [provider, model, tail] = segments as [string, string, string | undefined];
  const problems: RouterValidationErrorDetail[] = [];
  for (const [kind, value] of [['provider', provider], ['model', model]] as Array<[SegmentKind, string]>) {
    const problem = segmentProblem(kind, value);
    if (problem) problems.push({ loc: ['path', kind], msg: problem, type: 'string_pattern_mismatch', input: value });
  }
  if (problems.length > 0) {
    // Only the call route has a 422; on the GET routes a malformed id names no model.
    if (ctx.req.method === 'POST' && tail === undefined) return invalidInput(ctx, problems);
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
  const method = ctx.req.method ?? 'GET';
  if (tail === 'openapi.json') {
    return method === 'GET' ? sendSchema(ctx, state, found) : methodNotAllowed(ctx, 'GET');
  }
  if (method === 'GET') return showModel(ctx, found);
  if (method === 'POST') return runModel(ctx, state, caller, found);
  methodNotAllowed(ctx, 'GET, POST');
}

async function route(ctx: RequestContext): Promise<void> {
  const caller = authenticate(ctx);
  if (!caller) return;
  const state = modelsState(ctx.state);
  if (ctx.path === PREFIX) {
    return ctx.req.method === 'GET' ? listModels(ctx, state) : methodNotAllowed(ctx, 'GET');
  }
  const segments = decodeSegments(ctx.path.slice(PREFIX.length + 1));
  const shaped = segments && (segments.length === 2 || (segments.length === 3 && segments[2] === 'openapi.json'));
  if (!segments || !shaped) {
    return modelsError(ctx, 404, 'model_not_found', 'No such route: model routes are /v1/models/{provider}/{model} and /v1/models/{provider}/{model}/openapi.json.');
  }
  return routeModel(ctx, state, caller, segments);
}

export const handleModels: RouteHandler = async (ctx) => {
  if (ctx.path !== PREFIX && !ctx.path.startsWith(`${PREFIX}/`)) return false;
  stampRequestId(ctx);
  try {
    await route(ctx);
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
