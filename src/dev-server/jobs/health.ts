// GET /api/v2/health on the self-hosted deployment: the reference server's liveness answer,
// `{"status": "healthy", "upstream": <the engine's origin>}`, served without a credential.
import type { RequestContext } from '../contract.js';
import { originOf } from '../core/sockets.js';
import { sendJson } from '../http-kit.js';

export const HEALTH_PATH = '/api/v2/health';

/** The one job API path a static token does not cover. */
export function isHealthCheck(ctx: RequestContext): boolean {
  const method = ctx.req.method;
  return ctx.state.options.deployment === 'self-hosted' && ctx.path === HEALTH_PATH && (method === 'GET' || method === 'HEAD');
}

export function health(ctx: RequestContext): void {
  const { host, port } = ctx.state.options;
  sendJson(ctx, 200, { status: 'healthy', upstream: originOf(host, port) });
}
