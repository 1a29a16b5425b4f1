// Wire shapes of the job API v2, field for field from the service interface, "Resources and
// their fields" (sections "A. Job", "A. Progress", "A. Output", "A. JobError", "A. JobUrls") and
// "States and transitions" ("A. Job status"). Names are the service's own
// (snake_case); commands print these objects unchanged with --json. Pinned by
// test/unit/protocol-golden.test.ts against test/fixtures/protocol/jobs.json.
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
 * An asset record: the Output fields plus what the serving deployment adds; the interface does not
 * show those; the dev-server fixes `file_path` and `created_at` (src/dev-server/README.md,
 * "Job API v2 paths").
 */
export interface AssetRecord extends Output {
  file_path?: string;
  created_at?: string;
  [extra: string]: unknown;
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

/** "A. Job (`Job`)". */
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
}

/** Body of the submit operation: the interface leaves it unshown; `POST /api/v2/jobs` as src/dev-server/README.md fixes it. */
export interface SubmitRequest {
  workflow: Record<string, unknown>;
  extra_data?: Record<string, unknown>;
}

/** Body of the asset-from-hash operation (`POST /api/v2/assets/from-hash`, as src/dev-server/README.md fixes it). */
export interface AssetFromHashRequest {
  hash: string;
  file_path: string;
}
