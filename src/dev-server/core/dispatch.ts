// The main listener's request handler: context, auth per API family, then each family's module in turn.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { DevState, ListenerRole, RequestContext, RouteHandler } from '../contract.js';
import { BodyError } from '../http-kit.js';
import { checkCredential } from './auth.js';
import { buildContext, fallbackContext, newRequestId } from './context.js';
import { DEV_PREFIX, handleDevRoutes } from './dev-routes.js';
import { runFront } from './front.js';
import { headerName } from './names.js';
import { sendBodyError, sendInternalError, sendNotFound, servingFamily } from './api-family.js';
import { engineRoutePath } from '../self-hosted/paths.js';
import { isHealthCheck } from '../jobs/health.js';

function answerError(ctx: RequestContext, err: unknown): void {
  if (err instanceof BodyError) return sendBodyError(ctx, err);
  ctx.state.options.log?.(`internal error on ${ctx.req.method} ${ctx.url.pathname}: ${(err as Error)?.stack ?? String(err)}`);
  sendInternalError(ctx);
}

/** Serverless: v2 lives only under the deployment prefix; a prefix naming another deployment is unknown. */
function outsideMount(ctx: RequestContext): boolean {
  if (ctx.state.options.deployment !== 'serverless') return false;
  if (ctx.mountPrefix !== '') return ctx.deploymentId !== ctx.state.options.deploymentId;
  return servingFamily(ctx.path) === 'jobs';
}

/** Whether the listener the request came in on serves this family at all. */
function listenerServes(ctx: RequestContext, family: ReturnType<typeof servingFamily>): boolean {
  if (ctx.serves === 'engine') return family === 'legacy';
  if (ctx.serves === 'jobs') return family === 'jobs';
  return true;
}

async function route(ctx: RequestContext, handlers: RouteHandler[]): Promise<void> {
  if (ctx.path.startsWith(DEV_PREFIX) && ctx.mountPrefix === '') return handleDevRoutes(ctx);
  if (outsideMount(ctx)) return sendNotFound(ctx);
  const selfHosted = ctx.state.options.deployment === 'self-hosted';
  if (selfHosted) ctx.path = engineRoutePath(ctx.path);
  const family = servingFamily(ctx.path);
  // Neither the engine's aiohttp server nor the reference job API server sends a request id: only
  // the models API served beside them (the hosted router's) does.
  const serves = listenerServes(ctx, family);
  if (selfHosted && (family !== 'models' || !serves)) ctx.res.removeHeader(headerName(ctx.state, 'requestId'));
  if (!serves) return sendNotFound(ctx);
  if (family === 'jobs' && !isHealthCheck(ctx) && !checkCredential(ctx, 'jobs')) return;
  if (family === 'legacy' && ctx.path.startsWith('/api/') && !checkCredential(ctx, 'legacy')) return;
  for (const handler of handlers) {
    if (await handler(ctx)) return;
  }
  sendNotFound(ctx);
}

/** A listener's request handler; `serves` says which families it answers (the others are unknown paths). */
export function createMainListener(state: DevState, handlers: RouteHandler[], serves: ListenerRole): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const requestId = newRequestId();
    let ctx: RequestContext;
    try {
      ctx = buildContext(req, res, state, requestId, serves);
    } catch (err) {
      // A target that is not a URL (or a Host that is not an authority) gets a 400, never a crash.
      const fallback = fallbackContext(req, res, state, requestId, serves);
      res.setHeader(headerName(state, 'requestId'), requestId);
      return answerError(fallback, err);
    }
    void runFront(state, req, res, ctx.path, requestId, () => route(ctx, handlers), (err) => answerError(ctx, err));
  };
}
