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

// Error bodies are shared with the HTTP layer's error decoding.
export type { RouterErrorResponse, RouterValidationErrorDetail, RouterValidationErrorResponse } from '../../http/wire-errors.js';
