// Credential checks for the jobs family (Authorization: Bearer) and the legacy family (X-API-Key).
// The models family checks its own bearer tokens. On failure the answer is sent here, in the family's error shape.
import type { RequestContext } from '../contract.js';
import { sendLegacyError, sendJobsError } from '../http-kit.js';

export type CredentialKind = 'jobs' | 'legacy';

/** The bearer token of the request, or null. */
export function bearerToken(ctx: RequestContext): string | null {
  const header = ctx.req.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

function presented(ctx: RequestContext, kind: CredentialKind): string | null {
  if (kind === 'jobs') return bearerToken(ctx);
  const header = ctx.req.headers['x-api-key'];
  return typeof header === 'string' && header.length > 0 ? header : null;
}

function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);
}

/**
 * True when the request may go on. Otherwise answers 401 (`unauthorized`) or 403 (`forbidden`,
 * for a configured forbidden token) and returns false.
 */
export function checkCredential(ctx: RequestContext, kind: CredentialKind): boolean {
  const { apiKey, forbiddenTokens } = ctx.state.options;
  const token = presented(ctx, kind);
  const refuse = (status: 401 | 403, code: string, message: string): false => {
    if (kind === 'jobs') sendJobsError(ctx, status, code, message);
    else sendLegacyError(ctx, status, code, message);
    return false;
  };
  if (token !== null && forbiddenTokens.includes(token)) {
    return refuse(403, 'forbidden', 'this credential is not allowed to use this API');
  }
  if (apiKey === undefined) return true; // self-hosted without a token: open
  if (token === apiKey) return true;
  // The legacy family's scripted accounts (inactive subscription, no credits) authenticate; their run routes refuse.
  if (kind === 'legacy' && token !== null && (ctx.state.options.inactiveKeys.includes(token) || ctx.state.options.noCreditKeys.includes(token))) return true;
  if (kind === 'jobs' && ctx.state.options.deployment === 'self-hosted') {
    // The reference server's static-token check, in its words (and, like it, no WWW-Authenticate).
    return refuse(401, 'unauthorized', token === null ? 'Missing or malformed Authorization header.' : 'Invalid token.');
  }
  const header = kind === 'jobs' ? 'Authorization: Bearer <key>' : 'X-API-Key';
  if (token === null) return refuse(401, 'unauthorized', `missing credential: send ${header}`);
  if (kind === 'jobs' && looksLikeJwt(token)) {
    return refuse(401, 'unauthorized', 'this deployment does not accept JWT bearers; use an API key');
  }
  return refuse(401, 'unauthorized', 'invalid credential');
}
