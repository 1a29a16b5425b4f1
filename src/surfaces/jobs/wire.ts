// Wire shapes of surface A (job API v2), field for field from the service interface. Names are
// the service's own (snake_case); commands print these objects unchanged with --json.
export type { ErrorEnvelope } from '../../http/wire-errors.js';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'canceling' | 'canceled' | 'failed' | 'expired';

export const TERMINAL_STATUSES: ReadonlySet<string> = new Set<JobStatus>(['succeeded', 'canceled', 'failed', 'expired']);

export function isTerminal(status: string): boolean {
  return TERMINAL_STATUSES.has(status);
}

export interface Progress {
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

export type OutputType = 'image' | 'video' | 'audio' | 'text' | 'file' | 'latent';

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

/** An asset record: the Output fields plus what the serving surface adds (e.g. file_path, created_at). */
export interface AssetRecord extends Output {
  file_path?: string;
  created_at?: string;
  [extra: string]: unknown;
}

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

export interface JobUrls {
  self: string;
  events: string;
  cancel: string;
  /** Absent: the surface captures no logs for any job. */
  logs?: string;
}

export interface Job {
  id: string;
  status: JobStatus | string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  expires_at: string;
  queue_position: number | null;
  progress: Progress | null;
  outputs: Output[];
  error: JobError | null;
  metrics?: Record<string, number | null>;
  urls: JobUrls;
  deployment_id?: string;
  release_id?: string;
}

/** Body of the submit operation (dev-server.md: `POST /api/v2/jobs`). */
export interface SubmitRequest {
  workflow: Record<string, unknown>;
  extra_data?: Record<string, unknown>;
}

/** Body of the asset-from-hash operation. */
export interface AssetFromHashRequest {
  hash: string;
  file_path: string;
}
