// Which credential a request carries: the one rule the HTTP layer sends by and `wes doctor` and
// `wes auth status` show. Each credential belongs to the origin it was configured for: the API key
// to the base URL's, the router token to the router URL's, the engine key to the engine URL's. An
// engine on an origin of its own gets its own key or none, never the job API's.
import type { ApiFamily } from '../errors.js';

export type CredentialSetting = 'api_key' | 'router_token' | 'engine_key';

export interface CredentialOrigins {
  baseOrigin: string;
  routerOrigin: string;
  engineOrigin: string;
  apiKey?: string;
  routerToken?: string;
  engineKey?: string;
}

export interface CredentialChoice {
  setting: CredentialSetting;
  value: string;
}

/** The credential a request of `family` to `origin` (http/https form) carries, or none. */
export function credentialAt(family: ApiFamily, origin: string, c: CredentialOrigins): CredentialChoice | undefined {
  const pick = (setting: CredentialSetting, value: string | undefined) => (value === undefined ? undefined : { setting, value });
  switch (family) {
    case 'models':
      return origin === c.routerOrigin ? pick('router_token', c.routerToken) : undefined;
    case 'jobs':
      return origin === c.baseOrigin ? pick('api_key', c.apiKey) : undefined;
    case 'legacy':
      if (origin !== c.engineOrigin) return undefined;
      return pick('engine_key', c.engineKey) ?? (origin === c.baseOrigin ? pick('api_key', c.apiKey) : undefined);
  }
}

/** How a family's credential travels: `Authorization: Bearer`, or the `X-API-Key` header (the v1 WebSocket: its `token` query parameter). */
export function credentialScheme(family: ApiFamily): 'Bearer' | 'X-API-Key' {
  return family === 'legacy' ? 'X-API-Key' : 'Bearer';
}
