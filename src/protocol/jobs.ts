// Wire shapes of the job API v2, field for field from the service interface, "Resources and
// their fields" (sections "A. Job", "A. Progress", "A. Output", "A. JobError", "A. JobUrls") and
// "States and transitions" ("A. Job status"); where the interface says "not shown", from the
// published contract (the maker's OpenAPI document of the v2 API: Asset, AssetReference, the
// event payloads, JobLogs, the workflow sub-resource, single-use keys) and what its reference
// self-hosted server answered (../shared/observations/job-api-v2-reference.md: the job list,
// `metadata`). Names are the service's own (snake_case); commands print these objects unchanged
// with --json. Pinned by test/unit/protocol-golden.test.ts against test/fixtures/protocol/jobs.json.
export type { ErrorEnvelope } from './errors.js';

/** "A. Job status (`JobStatus`)": the values, and the four terminal ones. */
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'canceling' | 'canceled' | 'failed' | 'expired';

export const TERMINAL_STATUSES: ReadonlySet<string> = new Set<JobStatus>(['succeeded', 'canceled', 'failed', 'expired']);

export function isTerminal(status: string): boolean {
  return TERMINAL_STATUSES.has(status);
}

/** "A. Progress": one complete, re-syncing snapshot, weighted by node count and sampler steps. */
export interface JobProgress {
  /** Overall fraction, 0 to 1. */
  value: number;
  nodes_done: number;
  nodes_total: number;
  current_node?: string | null;
  current_node_class?: string | null;
  step?: number | null;
  steps?: number | null;
  message?: string | null;
}

/** "A. Output", field `type`: the normalized kind. */
export type OutputType = 'image' | 'video' | 'audio' | 'text' | 'file' | 'latent';

/** "A. Output": a committed job output, which is an asset. */
export interface Output {
  /** Empty string when the worker named no node. */
  node_id: string;
  name: string;
  type: OutputType | string;
  content_type: string;
  size_bytes: number;
  /** Asset UUID. */
  id: string;
  /** `blake3:<hex>`, null until computed lazily. */
  hash: string | null;
  url: string;
  url_expires_at: string;
  job_id?: string | null;
}

/**
 * The asset record as the published job API contract defines it (`Asset`): the interface shows only
 * the Output fields and says the rest is "not shown". No `name`, `type` or `node_id`: an output and
 * the asset behind it are two shapes. Unknown fields are kept (commands print them with --json).
 */
export interface AssetRecord {
  id: string;
  /** `blake3:<hex>`, null while computed lazily. */
  hash: string | null;
  size_bytes: number;
  content_type: string;
  created_at: string;
  /** Short-lived content URL: signed, or served by the job API server itself. */
  url: string;
  url_expires_at: string;
  file_path?: string | null;
  /** On create answers: a new blob (true) or a dedup hit on bytes already held (false). */
  created_new?: boolean;
  /** The asset's own retention; null or absent: it does not expire. */
  expires_at?: string | null;
  /** The job that produced it; absent for uploads. */
  job_id?: string | null;
  [extra: string]: unknown;
}

/** The fields every AssetRecord carries (the contract's `required`). */
export const ASSET_REQUIRED_FIELDS = ['id', 'hash', 'size_bytes', 'content_type', 'created_at', 'url', 'url_expires_at'] as const;

/**
 * A typed asset reference (`AssetReference` of the published contract): placed inside a workflow
 * where a file name would go. `info.id` decides; `hash` and `file_path` are hints that never
 * override it. A bare id string is not a reference: the engine reads it as a file name.
 */
export interface AssetReference {
  __type: 'core/ASSET';
  info: { id: string; hash?: string; file_path?: string };
}

export const ASSET_REFERENCE_TYPE = 'core/ASSET';

/** Whether a workflow input value is a typed asset reference (well-formed: an object `info` with a string `id`). */
export function isAssetReference(value: unknown): value is AssetReference {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  if (v.__type !== ASSET_REFERENCE_TYPE) return false;
  const info = v.info;
  return typeof info === 'object' && info !== null && !Array.isArray(info) && typeof (info as Record<string, unknown>).id === 'string';
}

/** Whether a value claims to be a typed asset reference (`__type: "core/ASSET"`), well-formed or not. */
export function claimsAssetReference(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as Record<string, unknown>).__type === ASSET_REFERENCE_TYPE;
}

/** The typed reference to an asset, with the hints the record has. */
export function assetReference(asset: { id: string; hash?: string | null; file_path?: string | null }): AssetReference {
  const info: AssetReference['info'] = { id: asset.id };
  if (typeof asset.hash === 'string') info.hash = asset.hash;
  if (typeof asset.file_path === 'string') info.file_path = asset.file_path;
  return { __type: ASSET_REFERENCE_TYPE, info };
}

/** "A. JobError": `JobNodeErrorReason`, `JobNodeError` and the failure detail in `job.error`. */
export interface JobNodeErrorReason {
  type: string;
  message: string;
  details?: string;
}

export interface JobNodeError {
  class_type?: string;
  errors: JobNodeErrorReason[];
}

/**
 * The other shape of a node's errors that the published contract's examples show in
 * `details.node_errors`: a list of `{field, reason}` per node id. Both shapes occur on the wire.
 */
export interface JobNodeFieldError {
  field: string;
  reason: string;
}

export type NodeErrorsEntry = JobNodeError | JobNodeFieldError[];

export interface JobError {
  code: string;
  message: string;
  node_id?: string | null;
  class_type?: string | null;
  traceback?: string | null;
  node_errors?: Record<string, JobNodeError>;
}

/** "A. JobUrls": links the client follows and never builds. */
export interface JobUrls {
  self: string;
  events: string;
  cancel: string;
  /** Absent: the deployment captures no logs for any job. */
  logs?: string;
}

/**
 * `JobLogs` of the published contract: what the run printed, as `job.logs` (deployments that
 * capture logs, once the run has finished) or as the JSON answer of the logs operation.
 * `truncated`: `text` is the tail of a longer log.
 */
export interface JobLogs {
  text: string;
  truncated: boolean;
  captured_at: string;
}

/** "A. Job (`Job`)", with the published contract's `logs` and the reference server's `metadata`. */
export interface Job {
  id: string;
  status: JobStatus | string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  expires_at: string;
  queue_position: number | null;
  progress: JobProgress | null;
  outputs: Output[];
  error: JobError | null;
  metrics?: Record<string, number | null>;
  urls: JobUrls;
  deployment_id?: string;
  release_id?: string;
  /** Published contract: only on deployments that capture logs, absent (never null) otherwise. */
  logs?: JobLogs;
  /**
   * The label given at submit, echoed: an opaque string on the reference self-hosted server, a map
   * of labels on serverless deployments (read leniently: see clients/jobs/labels.ts).
   */
  metadata?: string | JobLabels;
}

/** Serverless labels: string keys (1-40 of `A-Za-z0-9_-.`) to string values, at most 16 pairs. */
export type JobLabels = Record<string, string>;
export const LABELS_MAX_PAIRS = 16;
export const LABEL_KEY_PATTERN = /^[A-Za-z0-9_.-]{1,40}$/;
/** Label filters one serverless list request takes (`metadata[k]=v`). */
export const LIST_FILTERS_MAX = 3;

/** SSE `status` event (`StatusEvent`): the status and queue position, not a whole Job. */
export interface StatusEvent {
  status: JobStatus | string;
  queue_position?: number | null;
}

/** SSE `preview` event (`PreviewEvent`): an in-progress picture, base64. */
export interface PreviewEvent {
  node_id: string;
  content_type: string;
  data_base64: string;
}

/** SSE `log` event (`LogEvent`): reserved by the contract, not sent yet. */
export interface LogEvent {
  level: string;
  message: string;
}

/** The event names of the stream (`x-sse-events`); payloads: StatusEvent, JobProgress, PreviewEvent, Output, LogEvent. */
export const JOB_EVENT_NAMES = ['status', 'progress', 'preview', 'output', 'log'] as const;
export type JobEventName = (typeof JOB_EVENT_NAMES)[number];

/** `GET /api/v2/jobs/{id}/workflow` (`JobWorkflowResponse`): the graph behind a job and its shape. */
export interface JobWorkflowResponse {
  workflow: Record<string, unknown>;
  /** `api`: the executed API-format graph (what submit takes); `save`: the editor's saved graph. */
  format: 'api' | 'save' | string;
}

/**
 * `GET /api/v2/jobs?status=&limit=`: the reference self-hosted server's job list (newest first;
 * limit 1..100, default 50), not in the published contract; a server without it answers 404 or 501.
 */
export interface JobList {
  jobs: Job[];
  truncated: boolean;
}

/**
 * A serverless deployment's stored record, as its job list gives it: no outputs and no urls (read
 * the job for those); times may carry nanoseconds.
 */
export interface JobRecord {
  id: string;
  status: JobStatus | string;
  create_time: string;
  update_time: string;
  deployment_id?: string;
  metadata?: JobLabels;
}

/** A serverless list page (`limit`, `cursor`, `metadata[k]=v`): `next_cursor` absent on the last page. */
export interface JobRecordPage {
  jobs: JobRecord[];
  next_cursor?: string;
}

export const JOB_LIST_LIMIT_DEFAULT = 50;
export const JOB_LIST_LIMIT_MAX = 100;

/**
 * Body of `POST /api/v2/jobs` (published contract): `workflow` verbatim; `extra_data` a closed
 * object holding only the partner-node key. `metadata` (an opaque label, at most 1 KiB, echoed on
 * the job) and `priority` are taken by the reference self-hosted server.
 */
export interface SubmitRequest {
  workflow: Record<string, unknown>;
  /** The partner-node key under its real name (maker-names.ts); the reference server refuses any other field. */
  extra_data?: { api_key_comfy_org?: string };
  /** The self-hosted proxy's string, or serverless labels; Comfy Cloud refuses any. */
  metadata?: string | JobLabels;
  priority?: number;
}

/** The longest `metadata` label the reference server takes. */
export const METADATA_MAX_BYTES = 1024;

/** Body of `POST /api/v2/assets/from-hash` (published contract). */
export interface AssetFromHashRequest {
  hash: string;
  file_path?: string;
  tags?: string[];
  /** Retention override in seconds (the contract's 60..604800). */
  expires_in?: number;
}

/** `expires_in` bounds of asset uploads and from-hash (seconds: one minute to seven days). */
export const ASSET_EXPIRES_IN_MIN = 60;
export const ASSET_EXPIRES_IN_MAX = 604_800;

/**
 * `Idempotency-Key` on submit and asset upload is single use (published contract): any later
 * request with a claimed key is refused `422 idempotency_key_reuse` and never executed; the key is
 * released when the request definitively made nothing, kept when the outcome is unknown; keys expire.
 */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Job API error codes beyond the interface's table that the published contract and the reference
 * server use: an asset still held (`asset_in_use`, 409), too many open event streams
 * (`too_many_streams`, 429 with Retry-After), a surface without streams (`not_implemented`, 501).
 */
export const PUBLISHED_ERROR_CODES = ['asset_in_use', 'too_many_streams', 'not_implemented'] as const;
