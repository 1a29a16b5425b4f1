// The names that carry the maker's name on the wire, in one place. The service interface writes the
// neutral word `service` where the maker's name stands (`X-Service-Error-Type`,
// `extra_data.api_key_service_org`); the maker is Comfy, and its servers speak `X-Comfy-*` and
// `api_key_comfy_org` (its router contract, comfy-typescript-sdk spec/router-openapi.yaml and
// CHANGELOG; the reference job API server refuses `api_key_service_org` with 400, observed
// 2026-11-28 in ../shared/observations/job-api-v2-deployments.md). A client sends the real names
// and reads either; a server speaks one mode. Pinned by test/unit/protocol-golden.test.ts against
// test/fixtures/protocol/models.json ("maker_names").

/** `comfy`: the names real servers speak; `service`: the interface's neutral stand-ins. */
export type NameMode = 'comfy' | 'service';
export const NAME_MODES: readonly NameMode[] = ['comfy', 'service'];

/** Response headers named `X-<maker>-...`, by role. */
const MAKER_HEADER_TAILS = {
  /** On every router (and job API) answer: the id a support request quotes. */
  requestId: 'request-id',
  /** The bucket of every router error; on a 422 the only machine-readable one. */
  errorType: 'error-type',
  /** The provider's own status, when the failure came from the provider. */
  upstreamStatus: 'upstream-status',
  /** The provider's reason for refusing a request as malformed (mirrors `upstream_detail`). */
  upstreamDetail: 'upstream-detail',
  /** What a run cost in credits, a decimal string; absent means "not reported", never "free". */
  creditsUsed: 'credits-used',
  /** The provider that served a call after a fallback retry succeeded. */
  fallbackProvider: 'router-fallback-provider',
  /** ONE JSON-encoded string holding an array of sentences: the native fields a translation dropped. */
  droppedParams: 'router-dropped-params',
  /** Which input or output a `content_policy_violation` refused (fallback: the body's `refusal_subject`). */
  refusalSubject: 'refusal-subject',
} as const;

export type MakerHeader = keyof typeof MAKER_HEADER_TAILS;
export const MAKER_HEADER_ROLES = Object.keys(MAKER_HEADER_TAILS) as MakerHeader[];

/** The lowercase header name of `role` in `mode` (the real name unless asked otherwise). */
export function makerHeader(role: MakerHeader, mode: NameMode = 'comfy'): string {
  return `x-${mode}-${MAKER_HEADER_TAILS[role]}`;
}

/** A header of `role` from lowercase-keyed headers: the real name first, the neutral one where only it came. */
export function readMakerHeader(headers: Readonly<Record<string, string | undefined>>, role: MakerHeader): string | undefined {
  return headers[makerHeader(role, 'comfy')] ?? headers[makerHeader(role, 'service')];
}

/** Whether `name` (lowercase) is a maker-named header in either mode. */
export function isMakerHeader(name: string): boolean {
  return NAME_MODES.some((mode) => MAKER_HEADER_ROLES.some((role) => makerHeader(role, mode) === name));
}

/**
 * `extra_data` fields of a prompt or job submit that carry the maker's name: the partner-node API
 * key (job API v2 and the engine's /api/prompt) and the account's auth token (the engine's
 * /api/prompt only: the reference job API server's `extra_data` holds nothing but the key).
 */
const EXTRA_DATA_FIELDS = {
  comfy: { apiKey: 'api_key_comfy_org', authToken: 'auth_token_comfy_org' },
  service: { apiKey: 'api_key_service_org', authToken: 'auth_token_service_org' },
} as const;

export type ExtraDataRole = keyof (typeof EXTRA_DATA_FIELDS)['comfy'];

export function extraDataField(role: ExtraDataRole, mode: NameMode = 'comfy'): string {
  return EXTRA_DATA_FIELDS[mode][role];
}

/** The partner-node key's field, as wes sends it. */
export const PARTNER_KEY_FIELD = EXTRA_DATA_FIELDS.comfy.apiKey;
/** The auth token's field, as wes sends it on the engine's /api/prompt. */
export const PARTNER_TOKEN_FIELD = EXTRA_DATA_FIELDS.comfy.authToken;

/** Every secret-bearing `extra_data` field name in either mode (what a server must never echo). */
export const SECRET_EXTRA_DATA_FIELDS: ReadonlySet<string> = new Set(NAME_MODES.flatMap((m) => Object.values(EXTRA_DATA_FIELDS[m])));
