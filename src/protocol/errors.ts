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

/** "Router response headers": the `X-Committed-Spend-Limit/-Current/-Remaining` values of a spend-cap 429. */
export interface CommittedSpend {
  limit_cents: number;
  current_cents: number;
  remaining_cents: number;
}
