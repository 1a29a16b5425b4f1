// Wire shapes of the model router, from the service interface, "B. Router catalog resources" and
// "Endpoints", "B. Router" (the `/v1` routes), and beside them the generation the maker has
// published since (its router OpenAPI document): the same catalog under `/v2/models`, plus queued
// delivery. The id and cursor grammar is in model-ids.ts. Pinned by
// test/unit/protocol-golden.test.ts against test/fixtures/protocol/models.json.

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

export type { RouterErrorResponse, RouterValidationErrorDetail, RouterValidationErrorResponse } from './errors.js';

/** "Limits": the `limit` query parameter of GET /v1/models (0 and negatives select the default). */
export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;

/**
 * The generation of the router's routes: `v1`, the interface's `/v1/models...`; `v2`, the published
 * `/v2/models...` (same catalog, run and schema routes, plus queued delivery).
 */
export type RouterApi = 'v1' | 'v2';
export const ROUTER_APIS: readonly RouterApi[] = ['v1', 'v2'];

/** Published router, `RouterQueueStatus`: a closed lifecycle; a failure or a cancel is COMPLETED with an `error_type`. */
export const QUEUE_STATUSES = ['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED'] as const;
export type RouterQueueStatus = (typeof QUEUE_STATUSES)[number];

/** Published router, `RouterQueueUrls`: absolute URLs of one queued request. */
export interface RouterQueueUrls {
  status_url: string;
  response_url: string;
  cancel_url: string;
}

/** Published router, `RouterQueueSubmitResponse` (the 201 of the requests route). */
export interface RouterQueueSubmitResponse extends RouterQueueUrls {
  request_id: string;
  status: RouterQueueStatus;
  /** Requests ahead of this one (0: at the front). */
  queue_position?: number;
}

/** Published router, `RouterQueueStatusResponse` (the status read, and the 202 of the result read). */
export interface RouterQueueStatusResponse extends RouterQueueSubmitResponse {
  /** Only on a COMPLETED request that failed or was cancelled. */
  error_type?: string;
}

/** Published router, `RouterQueueCancelStatus`: 202 and 409 of the cancel route. */
export type RouterQueueCancelStatus = 'CANCELLATION_REQUESTED' | 'ALREADY_COMPLETED';

/** Published router, `RouterQueueCancelResponse`. */
export interface RouterQueueCancelResponse {
  request_id: string;
  status: RouterQueueCancelStatus;
}

/**
 * Response headers of the router that carry no maker's name (those are in maker-names.ts: request
 * id, error type, credits, upstream status and detail, fallback provider, dropped params, refusal
 * subject).
 */
export const ROUTER_HEADERS = {
  /** `true` on an answer served from an Idempotency-Key's record: not billed again. */
  replayed: 'idempotent-replayed',
  noSniff: 'x-content-type-options',
  spendLimit: 'x-committed-spend-limit',
  spendCurrent: 'x-committed-spend-current',
  spendRemaining: 'x-committed-spend-remaining',
} as const;

/**
 * Published router (SDK 0.4.0): the provider controls of the synchronous run route, as query
 * parameters, each sent only when set. The queued route does not take them.
 */
export const RUN_CONTROL_PARAMS = { provider: 'model_provider', strict: 'strict_mode', fallback: 'fallback_provider' } as const;

export interface RunControls {
  /** An alternate provider to serve the model (`model_provider`). */
  provider?: string;
  /** `strict_mode=true`: the body is already the alternate provider's own shape. */
  strict?: boolean;
  /** `fallback_provider=false`: a failure is refused, never retried on another provider. */
  noFallback?: boolean;
}

/** The query of `controls`; empty when none is set (the request is then the one it always was). */
export function runControlQuery(controls: RunControls): Record<string, string> {
  const query: Record<string, string> = {};
  if (controls.provider !== undefined) query[RUN_CONTROL_PARAMS.provider] = controls.provider;
  if (controls.strict) query[RUN_CONTROL_PARAMS.strict] = 'true';
  if (controls.noFallback) query[RUN_CONTROL_PARAMS.fallback] = 'false';
  return query;
}

/** The run and result routes of the published router answer JSON or the partner's own bytes. */
export const PUBLISHED_RUN_ACCEPT = 'application/json, */*;q=0.9';
