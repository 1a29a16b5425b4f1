// Wire shapes of the cloud API v1 (deprecated), from the service interface: "C. Cloud API v1
// resources", "C. Cloud API v1 status", "Endpoints" ("C. Cloud API v1") and "Events" ("C. WebSocket
// messages"); where the interface shows less, from what a local engine was observed to send
// (test/fixtures/protocol/legacy.json holds those observations). Field names are the service's
// own (snake_case). Pinned by test/unit/protocol-golden.test.ts.

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
  client_id?: string;
}

/** Answer of POST /api/prompt: `error` and `node_errors` carry a refused workflow. */
export interface V1PromptResponse {
  prompt_id?: string;
  number?: number;
  node_errors?: Record<string, V1NodeError>;
  error?: V1ErrorDetail | string;
}

/** Error body the local engine (and the dev-server) use: `{error: {type, message, details?}}`. */
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

export interface V1JobStatus {
  status: string;
}

/** `[number, prompt_id, prompt, extra_data, outputs_to_execute]`, the local engine's tuple. */
export type V1QueueEntry = [number, string, Record<string, unknown>, Record<string, unknown>, string[]];
export interface V1Queue {
  queue_running: unknown[];
  queue_pending: unknown[];
}

export interface V1QueueDeleteRequest {
  delete?: string[];
  clear?: boolean;
}

/** "C. Cloud API v1 status": the terminal values; every other value means "in flight". */
export const V1_TERMINAL_STATUSES = ['success', 'error', 'non_retryable_error', 'lost', 'cancelled'] as const;
export type V1TerminalStatus = (typeof V1_TERMINAL_STATUSES)[number];

export function isV1Terminal(status: string): status is V1TerminalStatus {
  return (V1_TERMINAL_STATUSES as readonly string[]).includes(status);
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

/** GET /api/features */
export interface V1Features {
  supports_preview_metadata: boolean;
  max_upload_size?: number;
}
