// The seams between the dev-server's parts: the core (HTTP/WS listeners, dispatch, faults,
// signed URLs), the engine with its blob store, the jobs API (job API v2), the models API (model router) and
// the legacy API (cloud API v1). Each family's module exports a handler with the RouteHandler shape;
// the core calls them in turn and the first that returns true owns the request.
import type { NameMode } from '../protocol/maker-names.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventEmitter } from 'node:events';
import type { Readable, Transform } from 'node:stream';
import type { JobProgress } from '../protocol/jobs.js';

/** The ComfyUI releases the self-hosted deployment's v1 can answer as (see self-hosted/version.ts). */
export const ENGINE_VERSIONS = ['0.3.18', '0.3.64'] as const;
export type EngineVersion = (typeof ENGINE_VERSIONS)[number];

/** Where the job API is deployed, which the dev-server imitates: hosted cloud, a serverless deployment, or self-hosted. */
export type DeploymentKind = 'cloud' | 'serverless' | 'self-hosted';

export interface DevServerOptions {
  host?: string; // default 127.0.0.1
  port?: number; // default 8188; 0 picks a free port
  deployment?: DeploymentKind; // default 'cloud' (the `--surface` flag)
  apiKey?: string; // cloud: required credential (default 'wes-dev-key'); self-hosted: the static --token
  engineOnly?: boolean; // self-hosted: serve only what a bare ComfyUI engine serves (v1): no jobs API, no models API
  engineVersion?: EngineVersion; // self-hosted: the ComfyUI release whose answers v1 imitates (default '0.3.18')
  routerTokens?: string[]; // extra bearer credentials accepted by the router (the api key always is)
  notEnabledTokens?: string[]; // router credentials that get 403 not_enabled
  retentionMs?: number; // job retention before `expired` (default 1 hour; self-hosted 24 hours, as the reference server)
  stepMs?: number; // time per Sample step (default 40)
  slots?: number; // jobs running in parallel (default 1)
  catalogSize?: number; // router catalog size (default 60)
  faults?: boolean; // enable POST /__dev/faults
  urlTtlMs?: number; // signed URL lifetime (default 10 minutes; self-hosted 24 hours, as the reference server)
  hashDelayMs?: number; // outputs carry hash:null this long after commit (default 50)
  deploymentId?: string; // serverless: the one deployment served (default 'dev-deployment')
  releaseId?: string; // serverless: release reported on jobs (default 'rel-0001')
  deploymentState?: 'ready' | 'not_ready' | 'unavailable' | 'stopped'; // serverless error switch
  maxBodyBytes?: number; // JSON body limit, 413 above (default 32 MiB); uploads: 2 GiB
  routerLimits?: { inFlight?: number; spendCents?: number }; // per credential (defaults 4 calls, 500 cents)
  forbiddenTokens?: string[]; // jobs/legacy credentials that authenticate but get 403 forbidden (default ['wes-dev-forbidden'])
  maxQueue?: number; // queued jobs beyond this: 429 queue_full (default 100)
  queueFullRetryAfter?: number; // the Retry-After seconds of a queue_full (default 2; tests shorten it)
  keepaliveMs?: number; // SSE `: keepalive` comment interval (default 15000)
  maxUploadBytes?: number; // asset upload limit, 413 above (default 2 GiB)
  // Both lists below are valid v1 credentials for the core's X-API-Key and /ws token checks.
  inactiveKeys?: string[]; // the legacy API: keys that authenticate but whose subscription is inactive: POST /api/prompt answers 429 (default [])
  noCreditKeys?: string[]; // the legacy API: keys that authenticate but whose balance is empty: POST /api/prompt answers 402 (default [])
  idempotencyTtlMs?: number; // how long a claimed Idempotency-Key stays claimed (default IDEMPOTENCY_KEY_TTL_MS, 24 h)
  jobList?: boolean; // serve GET /api/v2/jobs (default: on self-hosted only, as the reference server)
  maxStreams?: number; // open event streams per credential before 429 too_many_streams (default 8 on self-hosted, 0 = no limit elsewhere)
  jobsPort?: number; // self-hosted: a third listener serving only the job API v2 (the reference server's own port); the main one then serves only the engine
  logsFormat?: 'json' | 'text'; // serverless: the logs operation answers JSON {text, truncated, captured_at} (default) or text/plain
  engineState?: 'up' | 'down'; // 'down': submits answer 503 upstream_error, as the reference server with its engine stopped
  queueUrlPrefix?: string; // models: put queued requests' status_url/response_url/cancel_url under this path (e.g. '/v1/queue', which must be a models path) instead of the model's own; both are served
  names?: NameMode; // the maker's names on the wire: 'comfy' (X-Comfy-*, api_key_comfy_org; default, as real servers) or 'service' (the interface's neutral X-Service-*)
  cancel?: 'effective' | 'ignored'; // job API v2 cancel: 'ignored' answers 200 and the job runs on (default on self-hosted, as the reference server in front of ComfyUI 0.3.64); 'effective' stops it
  /**
   * The cloud's fetches of remote files (the asset library's URL upload, remote metadata, download)
   * have no internet: they reach loopback origins only, and a host named here (e.g. 'huggingface.co')
   * is fetched from the loopback origin given for it (a test's file server standing in). Default {}.
   */
  remoteOrigins?: Record<string, string>;
  log?: (line: string) => void; // request log sink (CLI: stderr); silent when absent
}

export interface DevServerHandle {
  url: string; // http://host:port of the main listener
  /** With `jobsPort`: http://host:port of the listener serving only the job API v2; otherwise undefined. */
  jobsUrl: string | undefined;
  signedOrigin: string; // origin of the signed-URL listener
  port: number;
  apiKey: string | undefined;
  state: DevState;
  close(): Promise<void>;
}

/** Per-request context the core builds and hands to each family's handler. */
export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL; // parsed request URL (absolute, against the request's Host)
  /** Path with the serverless mount prefix `/deployment/{id}` removed. */
  path: string;
  /** The mount prefix the request came in on ('' when none), to be put in front of every link. */
  mountPrefix: string;
  /** The id in the mount prefix; null without a prefix, or when the prefix's id does not decode. */
  deploymentId: string | null;
  origin: string; // scheme + authority of the request, for absolute links
  requestId: string;
  state: DevState;
  /** What the listener the request came in on serves: every family, only the engine (v1), or only the job API v2. */
  serves: ListenerRole;
}

export type ListenerRole = 'all' | 'engine' | 'jobs';

export type RouteHandler = (ctx: RequestContext) => Promise<boolean>;

export interface DevState {
  options: Required<Omit<DevServerOptions, 'log' | 'routerLimits' | 'apiKey' | 'jobsPort'>> & {
    apiKey: string | undefined;
    jobsPort: number | undefined;
    routerLimits: { inFlight: number; spendCents: number };
    /** The model router's request retention: `retentionMs` as given, else 1 hour on every surface. */
    routerRetentionMs: number;
    log?: (line: string) => void;
  };
  engine: Engine;
  blobs: BlobStore;
  signer: UrlSigner;
  faults: FaultTable;
  /** Counts every request by `METHOD path` (path without query), for tests proving request bounds. */
  requestCounts: Map<string, number>;
}

// ---- Engine ---------------------------------------------------------------------------------

export type EngineStatus =
  | 'queued'
  | 'running'
  | 'succeeded'
  | 'canceling'
  | 'canceled'
  | 'failed'
  | 'expired';

export interface WorkflowNode {
  class_type: string;
  inputs: Record<string, unknown>;
}
export type Workflow = Record<string, WorkflowNode>;

export interface NodeErrorReason {
  type: string;
  message: string;
  details?: string;
}
export interface NodeError {
  class_type?: string;
  errors: NodeErrorReason[];
}

/** Thrown by Engine.submit when the workflow is refused before running. */
export class WorkflowRejected extends Error {
  constructor(
    readonly code: 'invalid_workflow' | 'workflow_format_ui' | 'missing_asset',
    message: string,
    readonly nodeErrors: Record<string, NodeError> = {},
    readonly unknownNodeClasses: string[] = [],
  ) {
    super(message);
  }
}

/** Thrown by Engine.submit when a valid workflow cannot be taken now (v2: envelope code and status). */
export class SubmitRefused extends Error {
  constructor(
    readonly code: 'insufficient_credits' | 'queue_full',
    readonly status: 402 | 429,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export interface StoredOutput {
  id: string; // asset UUID
  node_id: string;
  name: string;
  type: 'image' | 'video' | 'audio' | 'text' | 'file' | 'latent';
  content_type: string;
  size_bytes: number;
  blobHash: string; // 'blake3:<hex>', always known to the server
  hashVisibleAt: number; // epoch ms from which `hash` is reported (lazy hashing)
  job_id: string | null;
  /** Uploads: the path given (or null for a from-hash record given none); outputs: the name. */
  file_path: string | null;
  created_at: string;
  /** Uploads with `expires_in`: the epoch ms at which the record is gone; outputs go with their job. */
  expiresAt?: number;
  tags?: string[];
  /** v1 view: subfolder and type of the file reference */
  subfolder: string;
  folderType: 'output' | 'temp';
}

export interface EngineJob {
  id: string;
  status: EngineStatus;
  workflow: Workflow;
  extraData: Record<string, unknown>;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  expires_at: string;
  progress: JobProgress | null;
  outputs: StoredOutput[];
  error: {
    code: string;
    message: string;
    node_id?: string | null;
    class_type?: string | null;
    traceback?: string | null;
    node_errors?: Record<string, NodeError>;
    /** Python-style exception class the node raised (v1 execution_error.exception_type). */
    exception_type?: string;
  } | null;
  metrics: Record<string, number | null>;
  logs: string[]; // lines the run printed
  /** The most recent preview frame while the job runs (the event stream pushes it on connect); dropped once the job ends. */
  latestPreview: { node: string; format: 'png' | 'jpeg'; bytes: Buffer } | null;
  deployment_id?: string;
  release_id?: string;
  /** The label given at submit (job API v2): the proxy's string, or serverless labels; echoed on every read. */
  metadata?: string | Record<string, string>;
  /** The advisory priority given at submit (job API v2), echoed by the self-hosted server. */
  priority?: number;
  /** Asset ids the workflow reads (typed references and LoadImage file names resolved at submit): held while the job is active. */
  assetIds: Set<string>;
  /** File names the v2 submit substituted for typed references, each with the asset it names. */
  inputAssets: Map<string, string>;
  /** how the job was submitted: v1 jobs use the v1 status names */
  via: 'v2' | 'v1';
  /** Self-hosted: the nodes ComfyUI's execution cache would have served this run (engine/exec-cache.ts). */
  cachedNodes?: string[];
}

/** What the engine emits on `events` as ('job', jobId, EngineEvent). */
export type EngineEvent =
  | { type: 'queued'; queue_position: number }
  | { type: 'started' }
  | { type: 'cached'; nodes: string[] }
  | { type: 'node_start'; node: string; class_type: string }
  | { type: 'progress'; node: string; value: number; max: number }
  | { type: 'preview'; node: string; format: 'png' | 'jpeg'; bytes: Buffer }
  | { type: 'text'; node: string; text: string }
  | { type: 'output'; node: string; output: StoredOutput }
  | { type: 'node_done'; node: string; outputs: StoredOutput[] }
  | { type: 'log'; line: string }
  | { type: 'succeeded' }
  | { type: 'failed'; exception_type: string; message: string; traceback: string; node: string | null }
  | { type: 'canceled' }
  | { type: 'expired' };

export interface NodeInputSpec {
  type: string; // 'INT' | 'FLOAT' | 'STRING' | 'BOOLEAN' | 'IMAGE' | combo uses 'COMBO'
  default?: unknown;
  min?: number;
  max?: number;
  choices?: string[];
  multiline?: boolean;
}
/** One class of object_info, in the shape ComfyUI's engine sends (clients convert and validate workflows with it). */
export interface NodeClassInfo {
  input: { required: Record<string, unknown[]>; optional?: Record<string, unknown[]> };
  input_order: { required: string[]; optional?: string[] };
  output: string[];
  output_is_list: boolean[];
  output_name: string[];
  name: string;
  display_name: string;
  category: string;
  description: string;
  python_module: string;
  output_node: boolean;
}

/** What a submit carries beside the workflow. */
export interface SubmitExtras {
  /** Serverless: the deployment the job runs on. */
  deploymentId?: string;
  metadata?: string | Record<string, string>;
  priority?: number;
  /** v2: file names substituted for typed asset references, each with the asset id it names. */
  inputAssets?: Map<string, string>;
  /** v1 on a newer engine: the client's own prompt id, used unless a job that has not ended holds it. */
  promptId?: string;
}

export interface Engine {
  /** emits ('job', jobId: string, event: EngineEvent), and ('status', jobId, status: EngineStatus) on every status change */
  readonly events: EventEmitter;
  submit(workflow: unknown, extraData: Record<string, unknown> | undefined, via: 'v2' | 'v1', extras?: SubmitExtras): EngineJob;
  get(id: string): EngineJob | undefined;
  /** v2 cancel and v1 queue delete: queued jobs end canceled, running ones go through canceling. */
  cancel(id: string): EngineJob | undefined;
  /** v1 interrupt: cancels the job(s) running now. */
  interrupt(): void;
  list(): EngineJob[];
  /** Jobs queued or running (or canceling), counted without walking every job. */
  activeCount(): number;
  queuePosition(id: string): number | null;
  objectInfo(): Record<string, NodeClassInfo>;
  /** Re-reads an output's content as a stream (from the blob store or the synthetic generator). */
  openOutput(output: StoredOutput, range?: { start: number; end: number }): Readable;
  findOutputByName(filename: string, subfolder: string, folderType: string): StoredOutput | undefined;
  findAsset(id: string): StoredOutput | undefined;
  /** Whether a queued or running job reads this asset. */
  assetInUse(id: string): boolean;
}

// ---- Blobs and assets -------------------------------------------------------------------------

export interface NewAssetFields {
  hash: string;
  file_path: string | null;
  content_type: string;
  tags?: string[];
  /** Epoch ms after which the record is gone. */
  expiresAt?: number;
}

export interface BlobStore {
  /** Streams `source` into the store while hashing; returns the blake3 hash and whether it was new. */
  /** Streams `source` (through `through`, e.g. a scanner) into a blob; listens for the source's errors at once. */
  put(source: Readable, through?: Transform[]): Promise<{ hash: string; size: number; created: boolean }>;
  has(hash: string): boolean;
  size(hash: string): number | undefined;
  open(hash: string, range?: { start: number; end: number }): Readable;
  /** Asset records (uploads and from-hash) keyed by asset id. */
  createAsset(fields: NewAssetFields): StoredOutput;
  getAsset(id: string): StoredOutput | undefined;
  /** Forgets an asset record (its bytes stay while anything else may read them). */
  deleteAsset(id: string): boolean;
  findAssetByPath(filePath: string): StoredOutput | undefined;
}

// ---- Signed URLs -------------------------------------------------------------------------------

export interface UrlSigner {
  /** An absolute URL on the signed listener for `target` (an opaque resource key), valid ttlMs. */
  sign(target: string, ttlMs?: number): { url: string; expiresAt: string };
  /** The signed download URL of an output or asset (what `url` fields and v1 /api/view redirect to). */
  signAsset(asset: StoredOutput, ttlMs?: number): { url: string; expiresAt: string };
}

// ---- Faults --------------------------------------------------------------------------------------

/**
 * One scripted answer. `match` is `METHOD /path/pattern` where `*` matches one path segment and a
 * trailing `**` any rest (paths without the mount prefix; the signed listener's paths start with
 * `/signed/`). The next `count` matching requests get the fault instead of (or in front of) the
 * real answer.
 */
export interface FaultSpec {
  match: string;
  count?: number; // default 1
  action: 'status' | 'delay' | 'drop' | 'truncate' | 'stall' | 'corrupt' | 'lose' | 'after' | 'race';
  race?: 'end-running' | 'end-expired' | 'late' | 'output-after' | 'expired-read'; // 'race': the reference server's race to play (faults/races.ts)
  status?: number; // actions 'status' and 'after'
  body?: unknown; // JSON body for 'status' and 'after' (string sent as is)
  headers?: Record<string, string>;
  retry_after?: number; // seconds, sets Retry-After on 'status'
  delay_ms?: number; // 'delay': wait, then answer normally
  after_bytes?: number; // 'truncate' and 'drop' of a streamed body: cut after this many bytes; 'stall': stop after them
}
export interface FaultTable {
  add(spec: FaultSpec): void;
  clear(): void;
  /** Takes the next fault matching this request, if any. */
  take(method: string, path: string): FaultSpec | undefined;
}
