// Which credential goes to which origin, for `wes doctor` and `wes auth status`: worked out by the
// rule the HTTP layer sends by (src/http/credential-rule.ts), so what is shown is what is sent.
import type { Settings } from '../../config/settings.js';
import { describeSource } from '../../config/settings.js';
import { maskSecret } from '../../config/keys.js';
import { API_FAMILIES, type ApiFamily } from '../../errors.js';
import { credentialAt, credentialScheme, type CredentialSetting } from '../../http/credential-rule.js';

/** One API family's requests: where they go and what they carry (`auth status --json`: `.credentials[]`). */
export interface CredentialRoute {
  family: ApiFamily;
  /** The origin the family's requests go to. */
  origin: string;
  /** The setting whose value goes there; null: none is sent. */
  credential: CredentialSetting | null;
  /** How it travels: `Bearer` (Authorization) or `X-API-Key` (the v1 WebSocket: its `token` query parameter). */
  scheme: string | null;
  /** Masked. */
  value: string | null;
  /** Where the value came from: `WES_API_KEY`, `profile key engine_key`, `COMFY_API_KEY`... */
  source: string | null;
  /** A configured key this origin does not get, and where it goes instead. */
  withheld: string | null;
}

function familyUrl(s: Settings, family: ApiFamily): string {
  return family === 'models' ? s.routerUrl : family === 'legacy' ? s.engineUrl : s.baseUrl;
}

const origin = (url: string) => new URL(url).origin;

/** The setting a value came from: the router's credential is the API key unless router_token is set. */
function settingOf(s: Settings, chosen: CredentialSetting): CredentialSetting {
  return chosen === 'router_token' && s.values.router_token.value === undefined ? 'api_key' : chosen;
}

/** Why a configured key is not sent to `to`: it belongs to another origin. */
function withheldFrom(s: Settings, family: ApiFamily, to: string): string | null {
  if (s.values.api_key.value === undefined) return null;
  if (s.keyOnlyFor && !s.keyOnlyFor.includes(to)) return `${describeSource(s.values.api_key, 'api_key')} goes only to ${s.keyOnlyFor.join(', ')}`;
  if (family === 'legacy' && to !== origin(s.baseUrl)) return `the API key goes only to ${origin(s.baseUrl)}; an engine that wants a key gets its own (engine_key)`;
  return null;
}

export function credentialRoutes(s: Settings): CredentialRoute[] {
  const origins = { baseOrigin: origin(s.baseUrl), routerOrigin: origin(s.routerUrl), engineOrigin: origin(s.engineUrl), apiKey: s.apiKey, routerToken: s.routerToken, engineKey: s.engineKey };
  return API_FAMILIES.map((family) => {
    const to = origin(familyUrl(s, family));
    const chosen = credentialAt(family, to, origins);
    if (!chosen) return { family, origin: to, credential: null, scheme: null, value: null, source: null, withheld: withheldFrom(s, family, to) };
    const setting = settingOf(s, chosen.setting);
    return { family, origin: to, credential: setting, scheme: credentialScheme(family), value: maskSecret(chosen.value), source: describeSource(s.values[setting], setting), withheld: null };
  });
}

/** One line: "X-API-Key …6789 (40 chars) from WES_ENGINE_KEY, sent only to http://127.0.0.1:8188". */
export function describeRoute(r: CredentialRoute): string {
  if (!r.credential) return `no credential sent to ${r.origin}${r.withheld ? ` (${r.withheld})` : ''}`;
  return `${r.scheme} ${r.value} from ${r.source}, sent only to ${r.origin}`;
}
