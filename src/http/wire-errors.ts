// Wire shapes of the error bodies of the three surfaces (service-interface.md, "Errors").

/** Surface A ErrorEnvelope. */
export interface ErrorEnvelope {
  error: { code: string; message: string; details?: Record<string, unknown> | null };
}

/** Surface B RouterErrorResponse. */
export interface RouterErrorResponse {
  detail: string;
  error_type: string;
}

export interface RouterValidationErrorDetail {
  loc: Array<string | number>;
  msg: string;
  type: string;
  ctx?: Record<string, unknown>;
  input?: unknown;
}

/** Surface B 422 RouterValidationErrorResponse. */
export interface RouterValidationErrorResponse {
  detail: RouterValidationErrorDetail[];
}

/** The closed set of router buckets; anything else is handled as internal_error. */
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

export interface CommittedSpend {
  limit_cents: number;
  current_cents: number;
  remaining_cents: number;
}
