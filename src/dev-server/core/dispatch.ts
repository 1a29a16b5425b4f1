// The main listener's request handler: context, auth per surface, then each surface module in turn.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { DevState, RequestContext, RouteHandler } from '../contract.js';
import { BodyError } from '../http-kit.js';
import { checkCredential } from './auth.js';
import { buildContext, fallbackContext, newRequestId } from './context.js';
import { DEV_PREFIX, handleDevRoutes } from './dev-routes.js';
import { REQUEST_ID_HEADER, runFront } from './front.js';
import { sendBodyError, sendInternalError, sendNotFound, surfaceOfPath } from './api-family.js';
import { engineRoutePath } from '../self-hosted/paths.js';

function answerError(ctx: RequestContext, err: unknown): void {
  if (err instanceof BodyError) return sendBodyError(ctx, err);
  ctx.state.options.log?.(`internal error on ${ctx.req.method} ${ctx.url.pathname}: ${(err as Error)?.stack ?? String(err)}`);
  sendInternalError(ctx);
}

/** Serverless: v2 lives only under the deployment prefix; a prefix naming another deployment is unknown. */
function outsideMount(ctx: RequestContext): boolean {
  if (ctx.state.options.surface !== 'serverless') return false;
  if (ctx.mountPrefix !== '') return ctx.deploymentId !== ctx.state.options.deploymentId;
  return surfaceOfPath(ctx.path) === 'v2';
}

async function route(ctx: RequestContext, handlers: RouteHandler[]): Promise<void> {
  if (ctx.path.startsWith(DEV_PREFIX) && ctx.mountPrefix === '') return handleDevRoutes(ctx);
  if (outsideMount(ctx)) return sendNotFound(ctx);
  if (ctx.state.options.surface === 'self-hosted') ctx.path = engineRoutePath(ctx.path);
  const surface = surfaceOfPath(ctx.path);
  if (surface !== 'v1' && ctx.state.options.engineOnly && ctx.state.options.surface === 'self-hosted') return sendNotFound(ctx);
  if (surface === 'v2' && !checkCredential(ctx, 'v2')) return;
  if (surface === 'v1' && ctx.path.startsWith('/api/') && !checkCredential(ctx, 'v1')) return;
  for (const handler of handlers) {
    if (await handler(ctx)) return;
  }
  sendNotFound(ctx);
}

export function createMainListener(state: DevState, handlers: RouteHandler[]): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const requestId = newRequestId();
    let ctx: RequestContext;
    try {
      ctx = buildContext(req, res, state, requestId);
    } catch (err) {
      // A target that is not a URL (or a Host that is not an authority) gets a 400, never a crash.
      const fallback = fallbackContext(req, res, state, requestId);
      res.setHeader(REQUEST_ID_HEADER, requestId);
      return answerError(fallback, err);
    }
    void runFront(state, req, res, ctx.path, requestId, () => route(ctx, handlers), (err) => answerError(ctx, err));
  };
}
