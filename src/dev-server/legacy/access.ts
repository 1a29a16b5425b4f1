// Who may use the legacy API, and which accounts cannot run work. The core checks `X-API-Key` on REST
// calls; the WebSocket handshake and the subscription checks of the run routes are checked here.
import type { IncomingMessage } from 'node:http';
import type { DevState } from '../contract.js';

export type KeyVerdict = 'ok' | 'unauthorized' | 'forbidden';

/** The same rule the core applies to `X-API-Key`, for the `token` query parameter of `/ws`. */
export function checkLegacyCredential(state: DevState, key: string | null | undefined): KeyVerdict {
  const { apiKey, inactiveKeys, noCreditKeys, forbiddenTokens } = state.options;
  if (apiKey === undefined) return 'ok'; // self-hosted without a token is open
  if (!key) return 'unauthorized';
  if (forbiddenTokens.includes(key)) return 'forbidden';
  if (key === apiKey || inactiveKeys.includes(key) || noCreditKeys.includes(key)) return 'ok';
  return 'unauthorized';
}

export function presentedKey(req: IncomingMessage): string | undefined {
  const value = req.headers['x-api-key'];
  return Array.isArray(value) ? value[0] : value;
}

export interface AccountRefusal {
  status: 402 | 429;
  type: string;
  message: string;
}

/** Running workflows needs an active subscription and, for the dev-server's scripted accounts, credits. */
export function accountRefusal(state: DevState, key: string | undefined): AccountRefusal | null {
  if (!key) return null;
  if (state.options.inactiveKeys.includes(key)) {
    return { status: 429, type: 'inactive_subscription', message: 'Your subscription is inactive; running workflows requires an active subscription.' };
  }
  if (state.options.noCreditKeys.includes(key)) {
    return { status: 402, type: 'insufficient_credits', message: 'Insufficient credits to run this workflow.' };
  }
  return null;
}
