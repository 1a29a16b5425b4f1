// Which of the three surfaces a path belongs to, and how each surface says "not found",
// "bad body" and "internal error" in its own error shape.
import type { RequestContext } from '../contract.js';
import { BodyError, sendRouterError, sendV1Error, sendV2Error } from '../http-kit.js';
import { sendPlainStatus } from '../self-hosted/plain.js';

export type PathSurface = 'v2' | 'router' | 'v1';

export function surfaceOfPath(path: string): PathSurface {
  if (path === '/api/v2' || path.startsWith('/api/v2/')) return 'v2';
  if (path === '/v1' || path.startsWith('/v1/')) return 'router';
  return 'v1';
}

/** Whether a path is one the imitated ComfyUI engine does not know, answered as aiohttp does. */
function unknownToEngine(ctx: RequestContext): boolean {
  if (ctx.state.options.surface !== 'self-hosted') return false;
  const surface = surfaceOfPath(ctx.path);
  return surface === 'v1' || ctx.state.options.engineOnly;
}

export function sendNotFound(ctx: RequestContext): void {
  if (unknownToEngine(ctx)) return sendPlainStatus(ctx, 404);
  switch (surfaceOfPath(ctx.path)) {
    case 'v2':
      return sendV2Error(ctx, 404, 'not_found', `no resource at ${ctx.req.method} ${ctx.url.pathname}`);
    case 'router':
      return sendRouterError(ctx, 404, 'model_not_found', 'not found');
    case 'v1':
      return sendV1Error(ctx, 404, 'not_found', `no route ${ctx.req.method} ${ctx.url.pathname}`);
  }
}

export function sendBodyError(ctx: RequestContext, err: BodyError): void {
  switch (surfaceOfPath(ctx.path)) {
    case 'v2':
      return sendV2Error(ctx, err.status, 'invalid_request', err.message);
    case 'router':
      return sendRouterError(ctx, err.status, 'invalid_input', err.message);
    case 'v1':
      return sendV1Error(ctx, err.status, 'invalid_request', err.message);
  }
}

export function sendInternalError(ctx: RequestContext): void {
  const message = 'unexpected failure in a backing service';
  switch (surfaceOfPath(ctx.path)) {
    case 'v2':
      return sendV2Error(ctx, 500, 'upstream_error', message);
    case 'router':
      return sendRouterError(ctx, 500, 'internal_error', message);
    case 'v1':
      return sendV1Error(ctx, 500, 'internal_error', message);
  }
}
