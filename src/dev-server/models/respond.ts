// How the router answers: every response carries X-Comfy-Request-Id (set once per request),
// every error X-Comfy-Error-Type (the neutral X-Service-* with names: 'service'); 422 bodies are
// RouterValidationErrorResponse. A model's outcome is sent as each generation describes it: the
// published routes (v2) add `nosniff`, the partner's own media type, the fallback provider and the
// dropped params on a result, the provider's reason (`upstream_detail`) on its refusal of a
// malformed request, and the refused subject of a content-policy refusal.
import type { RequestContext } from '../contract.js';
import { sendJson, sendModelsError } from '../http-kit.js';
import type { RouterApi, RouterValidationErrorDetail } from '../../protocol/models.js';
import type { ModelOutcome } from './stock/types.js';
import { headerName } from '../core/names.js';

export function stampRequestId(ctx: RequestContext): void {
  ctx.res.setHeader(headerName(ctx.state, 'requestId'), ctx.requestId);
}

export function modelsError(ctx: RequestContext, status: number, errorType: string, detail: string, headers: Record<string, string> = {}): void {
  sendModelsError(ctx, status, errorType, detail, headers);
}

export function invalidInput(ctx: RequestContext, detail: RouterValidationErrorDetail[], headers: Record<string, string> = {}): void {
  sendModelsError(ctx, 422, 'invalid_input', detail, headers);
}

/** Raw bytes, sent as they are (model outputs are forwarded without re-serialising). */
export function sendBytes(ctx: RequestContext, status: number, body: Buffer, headers: Record<string, string> = {}, contentType = 'application/json'): void {
  ctx.res.writeHead(status, { 'content-type': contentType, 'content-length': body.length, ...headers });
  ctx.res.end(body);
}

/** Raw JSON bytes, sent as they are. */
export function sendJsonBytes(ctx: RequestContext, status: number, body: Buffer, headers: Record<string, string> = {}): void {
  sendBytes(ctx, status, body, headers);
}

/** A model's outcome; `headers` go on it (on v2: the replay marker, the price, the spend figures). */
export function sendOutcome(ctx: RequestContext, outcome: ModelOutcome, api: RouterApi, headers: Record<string, string> = {}): void {
  if (outcome.kind === 'ok') {
    if (api === 'v1') return sendBytes(ctx, 200, outcome.body);
    const disclosed: Record<string, string> = {};
    if (outcome.fallbackProvider) disclosed[headerName(ctx.state, 'fallbackProvider')] = outcome.fallbackProvider;
    // ONE JSON-encoded string holding the sentences (each with commas of its own).
    if (outcome.droppedParams?.length) disclosed[headerName(ctx.state, 'droppedParams')] = JSON.stringify(outcome.droppedParams);
    return sendBytes(ctx, 200, outcome.body, { 'x-content-type-options': 'nosniff', ...disclosed, ...headers }, outcome.contentType);
  }
  const replayed = api === 'v2' ? headers['idempotent-replayed'] : undefined;
  const marker: Record<string, string> = replayed ? { 'idempotent-replayed': replayed } : {};
  if (outcome.kind === 'invalid') return invalidInput(ctx, outcome.detail, marker);
  const upstream = api === 'v2' ? outcome.upstream : undefined;
  const subject = api === 'v2' ? outcome.refusalSubject : undefined;
  if (subject) {
    return sendJson(ctx, outcome.status, { detail: outcome.detail, error_type: outcome.errorType, refusal_subject: subject }, {
      [headerName(ctx.state, 'errorType')]: outcome.errorType,
      [headerName(ctx.state, 'refusalSubject')]: subject,
      ...outcome.headers,
      ...marker,
    });
  }
  if (!upstream) return modelsError(ctx, outcome.status, outcome.errorType, outcome.detail, { ...outcome.headers, ...marker });
  sendJson(ctx, outcome.status, { detail: outcome.detail, error_type: outcome.errorType, upstream_detail: upstream.detail }, {
    [headerName(ctx.state, 'errorType')]: outcome.errorType,
    [headerName(ctx.state, 'upstreamStatus')]: String(upstream.status),
    [headerName(ctx.state, 'upstreamDetail')]: upstream.detail.replace(/[^\x20-\x7e]/g, '?'), // a header carries printable ASCII
    ...outcome.headers,
    ...marker,
  });
}
