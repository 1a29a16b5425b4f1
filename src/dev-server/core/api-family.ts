// Which of the three API families a path belongs to, and how each family says "not found",
// "bad body" and "internal error" in its own error shape.
import type { RequestContext } from '../contract.js';
import { BodyError, sendModelsError, sendLegacyError, sendJobsError } from '../http-kit.js';
import { familyOfPath, type ApiFamily } from '../../protocol/api-families.js';
import { sendPlainStatus } from '../self-hosted/plain.js';

/** The family whose error shape a path gets: outside `/api/v2` and `/v1` it is the v1 cloud API's. */
export function servingFamily(path: string): ApiFamily {
  return familyOfPath(path) ?? 'legacy';
}

/** Whether the imitated ComfyUI engine answers this request (as aiohttp does: plain text, no request id). */
export function answeredAsEngine(ctx: RequestContext): boolean {
  if (ctx.state.options.deployment !== 'self-hosted') return false;
  return servingFamily(ctx.path) === 'legacy' || ctx.serves === 'engine' || (ctx.serves === 'jobs' && servingFamily(ctx.path) !== 'jobs');
}

export function sendNotFound(ctx: RequestContext): void {
  if (answeredAsEngine(ctx)) return sendPlainStatus(ctx, 404);
  switch (servingFamily(ctx.path)) {
    case 'jobs':
      return sendJobsError(ctx, 404, 'not_found', `no resource at ${ctx.req.method} ${ctx.url.pathname}`);
    case 'models':
      return sendModelsError(ctx, 404, 'model_not_found', 'not found');
    case 'legacy':
      return sendLegacyError(ctx, 404, 'not_found', `no route ${ctx.req.method} ${ctx.url.pathname}`);
  }
}

export function sendBodyError(ctx: RequestContext, err: BodyError): void {
  switch (servingFamily(ctx.path)) {
    case 'jobs':
      return sendJobsError(ctx, err.status, 'invalid_request', err.message);
    case 'models':
      return sendModelsError(ctx, err.status, 'invalid_input', err.message);
    case 'legacy':
      return sendLegacyError(ctx, err.status, 'invalid_request', err.message);
  }
}

export function sendInternalError(ctx: RequestContext): void {
  const message = 'unexpected failure in a backing service';
  switch (servingFamily(ctx.path)) {
    case 'jobs':
      return sendJobsError(ctx, 500, 'upstream_error', message);
    case 'models':
      return sendModelsError(ctx, 500, 'internal_error', message);
    case 'legacy':
      return sendLegacyError(ctx, 500, 'internal_error', message);
  }
}
