// Wire shapes of the model router, from the service interface, "B. Router catalog resources" and
// "Endpoints", "B. Router". The id and cursor grammar is in model-ids.ts. Pinned by
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
