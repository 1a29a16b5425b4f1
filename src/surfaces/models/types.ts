// Wire shapes of surface B (the model router), as the service interface defines them.

export interface RouterModelBilling {
  /** Whether a call refused on content-policy grounds is still charged; an open string. */
  charges_on_policy_rejection: string;
}

export interface RouterModelListEntry {
  id: string;
  provider: string;
  model: string;
  billing: RouterModelBilling;
}

export interface RouterModelDetail extends RouterModelListEntry {
  input_schema_url?: string;
}

export interface RouterModelListResponse {
  data: RouterModelListEntry[];
  has_more: boolean;
  next_cursor?: string;
  limit: number;
}

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

export interface RouterValidationErrorResponse {
  detail: RouterValidationErrorDetail[];
}

/** The closed bucket set; anything else is handled as `internal_error`. */
export const ROUTER_ERROR_TYPES = [
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
] as const;
export type RouterErrorType = (typeof ROUTER_ERROR_TYPES)[number];

const KNOWN_TYPES: ReadonlySet<string> = new Set(ROUTER_ERROR_TYPES);

export function normalizeErrorType(value: unknown): RouterErrorType {
  return typeof value === 'string' && KNOWN_TYPES.has(value) ? (value as RouterErrorType) : 'internal_error';
}
