// Router credentials. Accepted: the server's API key, any configured router token, and on a
// self-hosted deployment without a key any non-empty bearer. Prefixes give test credentials an
// entitlement profile (see README.md): `limited-` is not entitled to the `prime` provider,
// `broke-` has no credits.
import type { RequestContext } from '../contract.js';
import { bearerToken } from '../core/auth.js';
import { RESTRICTED_PROVIDER } from './catalog.js';
import { modelsError } from './respond.js';

export interface ModelsCaller {
  token: string;
  /** Not entitled to RESTRICTED_PROVIDER models. */
  limited: boolean;
  /** The workspace has no credits. */
  broke: boolean;
}

/** The caller, or null after answering 401/403. */
export function authenticate(ctx: RequestContext): ModelsCaller | null {
  const options = ctx.state.options;
  const token = bearerToken(ctx);
  if (token === null) {
    modelsError(ctx, 401, 'unauthorized', 'Missing credential: send Authorization: Bearer <token>.');
    return null;
  }
  if (options.notEnabledTokens.includes(token)) {
    modelsError(ctx, 403, 'not_enabled', 'The model router is not switched on for this account yet.');
    return null;
  }
  if (options.forbiddenTokens.includes(token)) {
    modelsError(ctx, 403, 'forbidden', 'This credential is not entitled to use the model router.');
    return null;
  }
  const open = options.apiKey === undefined && options.deployment === 'self-hosted';
  if (!open && token !== options.apiKey && !options.routerTokens.includes(token)) {
    modelsError(ctx, 401, 'unauthorized', 'Invalid credential.');
    return null;
  }
  return { token, limited: token.startsWith('limited-'), broke: token.startsWith('broke-') };
}

/** False after answering 403 when the caller may not use models of this provider. */
export function entitled(ctx: RequestContext, caller: ModelsCaller, provider: string): boolean {
  if (caller.limited && provider === RESTRICTED_PROVIDER) {
    modelsError(ctx, 403, 'forbidden', `This credential is not entitled to models of the provider "${provider}".`);
    return false;
  }
  return true;
}
