// The wire shapes of the jobs API built from engine records: Job, Output, asset record.
// Signed URLs are minted at read time, so every read carries a fresh `url_expires_at`.
import type { EngineJob, RequestContext, StoredOutput } from '../contract.js';
import { jobUrls } from './links.js';
import type { Output } from '../../protocol/jobs.js';

/** The interface's Output (the client's wire type), with the fields this server always sets. */
export type OutputJson = Output & { type: StoredOutput['type']; job_id: string | null };

export function outputJson(ctx: RequestContext, output: StoredOutput): OutputJson {
  const signed = ctx.state.signer.signAsset(output);
  return {
    node_id: output.node_id,
    name: output.name,
    type: output.type,
    content_type: output.content_type,
    size_bytes: output.size_bytes,
    id: output.id,
    hash: Date.now() >= output.hashVisibleAt ? output.blobHash : null,
    url: signed.url,
    url_expires_at: signed.expiresAt,
    job_id: output.job_id,
  };
}

export function assetJson(ctx: RequestContext, asset: StoredOutput): OutputJson & { file_path: string; created_at: string } {
  return { ...outputJson(ctx, asset), file_path: asset.file_path, created_at: asset.created_at };
}

function errorJson(error: NonNullable<EngineJob['error']>): Record<string, unknown> {
  const { exception_type: _internal, ...wire } = error;
  return wire;
}

export function jobJson(ctx: RequestContext, job: EngineJob): Record<string, unknown> {
  return {
    id: job.id,
    status: job.status,
    created_at: job.created_at,
    started_at: job.started_at,
    completed_at: job.completed_at,
    expires_at: job.expires_at,
    queue_position: ctx.state.engine.queuePosition(job.id),
    progress: job.progress,
    outputs: job.outputs.map((o) => outputJson(ctx, o)),
    error: job.error ? errorJson(job.error) : null,
    metrics: { ...job.metrics },
    urls: jobUrls(ctx, job.id),
    ...(job.deployment_id !== undefined ? { deployment_id: job.deployment_id } : {}),
    ...(job.release_id !== undefined ? { release_id: job.release_id } : {}),
  };
}
