// How the router answers: every response carries X-Service-Request-Id (set once per request),
// every error X-Service-Error-Type; 422 bodies are RouterValidationErrorResponse.
import type { RequestContext } from '../contract.js';
import { sendModelsError } from '../http-kit.js';
import type { RouterValidationErrorDetail } from '../../protocol/models.js';

export function stampRequestId(ctx: RequestContext): void {
  ctx.res.setHeader('x-service-request-id', ctx.requestId);
}

export function modelsError(ctx: RequestContext, status: number, errorType: string, detail: string, headers: Record<string, string> = {}): void {
  sendModelsError(ctx, status, errorType, detail, headers);
}

export function invalidInput(ctx: RequestContext, detail: RouterValidationErrorDetail[]): void {
  sendModelsError(ctx, 422, 'invalid_input', detail);
}

/** Raw JSON bytes, sent as they are (model outputs are forwarded without re-serialising). */
export function sendJsonBytes(ctx: RequestContext, status: number, body: Buffer, headers: Record<string, string> = {}): void {
  ctx.res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length, ...headers });
  ctx.res.end(body);
}
