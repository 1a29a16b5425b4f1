// The wire shapes of the jobs API built from engine records: Job, Output, Asset. Content URLs are
// minted at read time, so every read carries a fresh `url_expires_at`. The self-hosted deployment
// writes them as the reference server does: outputs declared with size 0 and no hash, content
// served on its own origin, no timestamps, no metrics, a progress of zeros while running.
import type { EngineJob, RequestContext, StoredOutput } from '../contract.js';
import { isTerminal, type AssetRecord, type JobLogs, type Output } from '../../protocol/jobs.js';
import { isSelfHosted, jobUrls, v2Link } from './links.js';
import { pythonIsoformat, pythonTime } from '../self-hosted/py-time.js';

/** The interface's Output (the client's wire type), with the fields this server always sets. */
export type OutputJson = Output & { type: StoredOutput['type']; job_id: string | null };

/** Where the bytes are: a signed URL (hosted), or the content route on the server's own origin (self-hosted). */
function contentLink(ctx: RequestContext, asset: StoredOutput): { url: string; expiresAt: string } {
  if (!isSelfHosted(ctx)) return ctx.state.signer.signAsset(asset);
  return {
    url: v2Link(ctx, `assets/${encodeURIComponent(asset.id)}/content`),
    expiresAt: pythonIsoformat(Date.now() + ctx.state.options.urlTtlMs),
  };
}

function visibleHash(asset: StoredOutput): string | null {
  return Date.now() >= asset.hashVisibleAt ? asset.blobHash : null;
}

export function outputJson(ctx: RequestContext, output: StoredOutput): OutputJson {
  const link = contentLink(ctx, output);
  // The reference server declares every output empty and unhashed, whatever its bytes.
  const declared = isSelfHosted(ctx) ? { size_bytes: 0, hash: null } : { size_bytes: output.size_bytes, hash: visibleHash(output) };
  return {
    node_id: output.node_id,
    name: output.name,
    type: output.type,
    content_type: output.content_type,
    size_bytes: declared.size_bytes,
    id: output.id,
    hash: declared.hash,
    url: link.url,
    url_expires_at: link.expiresAt,
    job_id: output.job_id,
  };
}

/**
 * A job output read as an asset on the reference server: no hash, size 0, no expiry, and a
 * `created_at` that is the moment of the read (it changes from one read to the next).
 */
function selfHostedOutputRecord(asset: StoredOutput, link: { url: string; expiresAt: string }): AssetRecord {
  return {
    id: asset.id,
    hash: null,
    size_bytes: 0,
    content_type: asset.content_type,
    file_path: asset.file_path,
    created_at: pythonIsoformat(Date.now()),
    url: link.url,
    url_expires_at: link.expiresAt,
    job_id: asset.job_id,
  };
}

/** The published Asset record: uploads carry no job, outputs name theirs and expire with it. */
export function assetJson(ctx: RequestContext, asset: StoredOutput, createdNew?: boolean): AssetRecord {
  const link = contentLink(ctx, asset);
  const job = asset.job_id !== null ? ctx.state.engine.get(asset.job_id) : undefined;
  const expiresAt = job?.expires_at ?? (asset.expiresAt !== undefined ? new Date(asset.expiresAt).toISOString() : undefined);
  const output = asset.job_id !== null;
  if (output && isSelfHosted(ctx)) return selfHostedOutputRecord(asset, link);
  return {
    id: asset.id,
    hash: visibleHash(asset),
    size_bytes: asset.size_bytes,
    content_type: asset.content_type,
    file_path: asset.file_path,
    created_at: isSelfHosted(ctx) ? pythonIsoformat(Date.parse(asset.created_at)) : asset.created_at,
    url: link.url,
    url_expires_at: link.expiresAt,
    ...(createdNew !== undefined ? { created_new: createdNew } : {}),
    ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
    ...(output ? { job_id: asset.job_id } : {}),
  };
}

function errorJson(error: NonNullable<EngineJob['error']>): Record<string, unknown> {
  const { exception_type: _internal, ...wire } = error;
  return wire;
}

/** `job.logs` (published): what a finished run printed, on the deployment that captures logs. */
export function jobLogs(job: EngineJob): JobLogs | undefined {
  if (!isTerminal(job.status) || job.logs.length === 0 || job.completed_at === null) return undefined;
  return { text: `${job.logs.join('\n')}\n`, truncated: false, captured_at: job.completed_at };
}

export interface JobViewOptions {
  /** `GET /api/v2/jobs/{id}` only: the published `logs` object rides no other answer. */
  withLogs?: boolean;
  /** The submit answer: the reference server names no queue position in it, even for a job that waits. */
  submitted?: boolean;
}

/** The Job as the reference self-hosted server writes it. */
function selfHostedJobJson(ctx: RequestContext, job: EngineJob, view: JobViewOptions): Record<string, unknown> {
  const position = view.submitted || job.status !== 'queued' ? null : ctx.state.engine.queuePosition(job.id);
  const active = job.status === 'running' || job.status === 'canceling';
  return {
    id: job.id,
    status: job.status,
    created_at: pythonTime(job.created_at),
    started_at: null,
    completed_at: null,
    expires_at: pythonTime(job.expires_at),
    // It counts the job running now: the next job in line is 1.
    queue_position: position === null ? null : position + 1,
    // Polled progress is always zero: the event stream is where the progress is.
    progress: active ? { value: 0, nodes_done: 0, nodes_total: 0 } : null,
    outputs: job.outputs.map((o) => outputJson(ctx, o)),
    error: job.error ? errorJson(job.error) : null,
    // The reference server reads the engine's history (`execution_cached`): so only a finished job can say true.
    outputs_reused: isTerminal(job.status) && (job.cachedNodes?.length ?? 0) > 0,
    urls: jobUrls(ctx, job.id),
    ...(job.metadata !== undefined ? { metadata: job.metadata } : {}),
    ...(job.priority !== undefined ? { priority: job.priority } : {}),
  };
}

export function jobJson(ctx: RequestContext, job: EngineJob, view: JobViewOptions = {}): Record<string, unknown> {
  if (isSelfHosted(ctx)) return selfHostedJobJson(ctx, job, view);
  const logs = view.withLogs && ctx.state.options.deployment === 'serverless' ? jobLogs(job) : undefined;
  return {
    id: job.id,
    status: job.status,
    created_at: job.created_at,
    started_at: job.started_at,
    completed_at: job.completed_at,
    expires_at: job.expires_at,
    queue_position: ctx.state.engine.queuePosition(job.id),
    // Comfy Cloud polls a job under way with `progress: null`: its live progress rides the event stream only.
    progress: ctx.state.options.deployment === 'cloud' && !isTerminal(job.status) ? null : job.progress,
    outputs: job.outputs.map((o) => outputJson(ctx, o)),
    error: job.error ? errorJson(job.error) : null,
    metrics: { ...job.metrics },
    urls: jobUrls(ctx, job.id),
    ...(job.deployment_id !== undefined ? { deployment_id: job.deployment_id } : {}),
    ...(job.release_id !== undefined ? { release_id: job.release_id } : {}),
    ...(job.metadata !== undefined ? { metadata: job.metadata } : {}),
    ...(logs !== undefined ? { logs } : {}),
  };
}
