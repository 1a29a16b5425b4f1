// Wire shapes of the cloud API v1 (deprecated), from the service interface: "C. Cloud API v1
// resources", "C. Cloud API v1 status", "Endpoints" ("C. Cloud API v1") and "Events" ("C. WebSocket
// messages"); where the interface is silent, from the published cloud document (Comfy-Org/docs,
// openapi-cloud.yaml: the job list and detail, the status route's fields, queue items, errors)
// and from what ComfyUI engines 0.3.18 and 0.3.64 were recorded sending
// (test/fixtures/protocol/legacy.json holds both). Field names are the service's own
// (snake_case). Pinned by test/unit/protocol-golden.test.ts and protocol-golden-legacy.test.ts.

/** Upload result of POST /api/upload/image and /api/upload/mask. */
export interface V1UploadResult {
  name: string;
  subfolder: string;
  type?: string;
}

/** Output file reference inside node outputs (`executed` messages, queue outputs). */
export interface V1FileRef {
  filename: string;
  subfolder: string;
  type: string; // 'output' for final outputs, 'temp' for previews
}

/** Per node id: keys `images`, `video`, `audio` (and others) hold arrays of file references. */
export type V1NodeOutput = Record<string, unknown>;

export interface V1NodeErrorReason {
  type: string;
  message: string;
  details?: string;
  extra_info?: Record<string, unknown>;
}
export interface V1NodeError {
  class_type?: string;
  errors: V1NodeErrorReason[];
  dependent_outputs?: string[];
}

/** Body of POST /api/prompt. */
export interface V1PromptRequest {
  prompt: Record<string, unknown>;
  extra_data?: Record<string, unknown>;
  /** The WebSocket client an engine sends this prompt's lifecycle messages to (and only to it). */
  client_id?: string;
  /** An id of the client's own, which a newer engine (0.3.64) uses as given; 0.3.18 makes its own. */
  prompt_id?: string;
}

/** Answer of POST /api/prompt: `error` and `node_errors` carry a refused workflow. */
export interface V1PromptResponse {
  prompt_id?: string;
  number?: number;
  node_errors?: Record<string, V1NodeError>;
  error?: V1ErrorDetail | string;
}

/** The published document's error body of the cloud API: `{code, message}`. */
export interface V1CloudError {
  code: string;
  message: string;
}

/** Error body of the local engine (and of a refused prompt on the cloud): `{error: {type, message, details?}}`. */
export interface V1ErrorDetail {
  type?: string;
  message?: string;
  details?: string;
  extra_info?: Record<string, unknown>;
}
export interface V1ErrorBody {
  error?: V1ErrorDetail | string;
  node_errors?: Record<string, V1NodeError>;
  message?: string;
}

/** GET /api/job/{id}/status; the published document adds the other fields (`error_message` when it failed). */
export interface V1JobStatus {
  status: string;
  id?: string;
  created_at?: string;
  updated_at?: string;
  last_state_update?: string;
  assigned_inference?: string | null;
  error_message?: string | null;
}

/** `[number, prompt_id, prompt, extra_data, outputs_to_execute]`, the local engine's tuple. */
export type V1QueueEntry = [number, string, Record<string, unknown>, Record<string, unknown>, string[]];
/** The published document's cloud queue item: `[number, prompt_id, workflow, output_node_ids, {create_time}]`. */
export type V1CloudQueueEntry = [number, string, Record<string, unknown>, string[], { create_time?: number }];
export interface V1Queue {
  queue_running: unknown[];
  queue_pending: unknown[];
}

export interface V1QueueDeleteRequest {
  delete?: string[];
  clear?: boolean;
}

/** The published answer of POST /api/queue on the cloud (an engine answers with an empty body). */
export interface V1QueueDeleteResponse {
  deleted?: string[];
  cleared?: boolean;
}

/** The published ExecutionError of a failed job (GET /api/jobs, /api/jobs/{id}). */
export interface V1ExecutionError {
  node_id: string;
  node_type: string;
  exception_message: string;
  exception_type: string;
  traceback: string[];
  current_inputs: Record<string, unknown>;
  current_outputs: Record<string, unknown>;
}

/** One row of GET /api/jobs (the published list: no workflow, no full outputs). */
export interface V1JobEntry {
  id: string;
  status: string;
  create_time: number;
  execution_error?: V1ExecutionError;
  preview_output?: Record<string, unknown>;
  outputs_count?: number;
  workflow_id?: string;
  execution_start_time?: number;
  execution_end_time?: number;
}

export interface V1Pagination {
  offset: number;
  limit: number;
  total: number;
  has_more: boolean;
}

/** GET /api/jobs?status=&offset=&limit= */
export interface V1JobsList {
  jobs: V1JobEntry[];
  pagination: V1Pagination;
}

/** GET /api/jobs/{id}: outputs are the engine's node outputs, once the job has ended. */
export interface V1JobDetail extends Omit<V1JobEntry, 'execution_start_time' | 'execution_end_time'> {
  update_time: number;
  workflow?: Record<string, unknown>;
  outputs?: Record<string, V1NodeOutput>;
  execution_status?: Record<string, unknown>;
  execution_meta?: Record<string, unknown>;
}

/**
 * The terminal values of the status route: the interface's "C. Cloud API v1 status" (`success`,
 * `error`, `non_retryable_error`, `lost`, `cancelled`) and the published document's two
 * vocabularies (status route: `completed`, `error`, `cancelled`; job list and detail: `completed`,
 * `failed`, `cancelled`). Every other value means "in flight".
 */
export const V1_TERMINAL_STATUSES = ['success', 'error', 'non_retryable_error', 'lost', 'cancelled', 'completed', 'failed'] as const;
export type V1TerminalStatus = (typeof V1_TERMINAL_STATUSES)[number];
/** The terminal values that mean it succeeded. */
export const V1_SUCCESS_STATUSES = ['success', 'completed'] as const;

export function isV1Terminal(status: string): status is V1TerminalStatus {
  return (V1_TERMINAL_STATUSES as readonly string[]).includes(status);
}

export function isV1Success(status: string): boolean {
  return (V1_SUCCESS_STATUSES as readonly string[]).includes(status);
}

// ---- WebSocket text messages -------------------------------------------------------------------

export interface V1ProgressStateNode {
  value: number;
  max: number;
  state: 'pending' | 'running' | 'finished' | 'error';
  node_id: string;
  prompt_id: string;
  display_node_id: string;
  parent_node_id: string | null;
  real_node_id: string;
}

/** Text frames: `{type, data}`; the job is identified by `data.prompt_id`. */
export type V1WsMessage =
  | { type: 'status'; data: { status: { exec_info: { queue_remaining: number } }; sid?: string; prompt_id?: string } }
  | { type: 'notification'; data: { value: string; id?: string; prompt_id?: string } }
  | { type: 'execution_start'; data: { prompt_id: string; timestamp: number } }
  | { type: 'executing'; data: { node: string | null; display_node?: string | null; prompt_id: string } }
  | { type: 'progress'; data: { value: number; max: number; node: string; prompt_id: string } }
  | { type: 'progress_state'; data: { prompt_id: string; nodes: Record<string, V1ProgressStateNode> } }
  | { type: 'executed'; data: { node: string; display_node?: string; output: V1NodeOutput; prompt_id: string } }
  | { type: 'execution_cached'; data: { nodes: string[]; prompt_id: string; timestamp: number } }
  | { type: 'execution_success'; data: { prompt_id: string; timestamp: number } }
  | {
      type: 'execution_error';
      data: {
        prompt_id: string;
        node_id: string | null;
        node_type: string | null;
        executed: string[];
        exception_type: string;
        exception_message: string;
        traceback: string[];
        current_inputs: Record<string, unknown>;
        current_outputs: Record<string, unknown>;
        timestamp: number;
      };
    }
  | {
      type: 'execution_interrupted';
      data: { prompt_id: string; node_id: string | null; node_type: string | null; executed: string[]; timestamp: number };
    };

export type V1WsMessageType = V1WsMessage['type'];

/** What a client sends once connected to ask for type-4 previews (local-engine feature negotiation). */
export interface V1FeatureFlagsMessage {
  type: 'feature_flags';
  data: { supports_preview_metadata?: boolean };
}

/** GET /api/features (0.3.64 and the cloud; 0.3.18 has no such route) and the engine's `feature_flags` reply. */
export interface V1Features {
  supports_preview_metadata: boolean;
  max_upload_size?: number;
}

/** The engine's answer to a first `feature_flags` message (0.3.64). */
export interface V1FeatureFlagsReply {
  type: 'feature_flags';
  data: V1Features;
}
