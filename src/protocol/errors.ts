// Wire shapes of the error bodies, from the service interface: "Errors" ("A. Job API v2",
// "B. Router") and "B. Router error resources". Pinned by test/unit/protocol-golden.test.ts
// against test/fixtures/protocol/errors.json.

/** "Errors", "A. Job API v2": the envelope `{error: {code, message, details?}}`. */
export interface ErrorEnvelope {
  error: { code: string; message: string; details?: Record<string, unknown> | null };
}

/** "B. Router error resources": `RouterErrorResponse`. */
export interface RouterErrorResponse {
  detail: string;
  error_type: string;
}

/** "B. Router error resources": one offending field; `type` is an open string. */
export interface RouterValidationErrorDetail {
  loc: Array<string | number>;
  msg: string;
  type: string;
  ctx?: Record<string, unknown>;
  input?: unknown;
}

/** "B. Router error resources": the 422 `RouterValidationErrorResponse`. */
export interface RouterValidationErrorResponse {
  detail: RouterValidationErrorDetail[];
}

/** "Errors", "B. Router": the closed set of fifteen buckets; anything else is handled as internal_error. */
export const ROUTER_ERROR_TYPES = new Set([
  'invalid_input',
  'content_policy_violation',
  'provider_error',
  'provider_timeout',
  'insufficient_credits',
  'model_not_found',
  'unauthorized',
  'forbidden',
  'concurrency_limit_exceeded',
  'client_disconnected',
  'internal_error',
  'deadline_exceeded',
  'not_enabled',
  'service_unavailable',
  'rate_limited',
]);

/**
 * The published router (`/v2`): the fifteen buckets and four more of queued delivery, nineteen as
 * published. Still an open set there: an unknown bucket is handled as internal_error.
 */
export const ROUTER_QUEUE_ERROR_TYPES = ['cancelled', 'queue_timeout', 'request_not_found', 'queue_backlog_full'] as const;
export const PUBLISHED_ROUTER_ERROR_TYPES: ReadonlySet<string> = new Set([...ROUTER_ERROR_TYPES, ...ROUTER_QUEUE_ERROR_TYPES]);

/** The published router's `RouterErrorResponse`: the interface's, plus the provider's reason for refusing a malformed request. */
export interface PublishedRouterErrorResponse extends RouterErrorResponse {
  /** Only with `invalid_input` when the provider answered 4xx; mirrors `X-Comfy-Upstream-Detail`. */
  upstream_detail?: string;
}

/** "Router response headers": the `X-Committed-Spend-Limit/-Current/-Remaining` values of a spend-cap 429. */
export interface CommittedSpend {
  limit_cents: number;
  current_cents: number;
  remaining_cents: number;
}
