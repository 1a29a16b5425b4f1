// Job reads and control: get, cancel, logs, events.
import type { EngineJob, RequestContext } from '../contract.js';
import { sendEmpty, sendJson, sendJobsError } from '../http-kit.js';
import { streamJobEvents } from './events.js';
import { jobJson } from './view.js';

/** The job when this deployment serves it; otherwise answers 404. */
function findJob(ctx: RequestContext, id: string): EngineJob | undefined {
  const job = ctx.state.engine.get(id);
  const sameDeployment = job && (job.deployment_id ?? null) === (ctx.deploymentId ?? null);
  if (job && sameDeployment) return job;
  sendJobsError(ctx, 404, 'not_found', `no job ${id} (it may have passed its retention)`);
  return undefined;
}

export function getJob(ctx: RequestContext, id: string): void {
  const job = findJob(ctx, id);
  if (job) sendJson(ctx, 200, jobJson(ctx, job));
}

export function cancelJob(ctx: RequestContext, id: string): void {
  if (!findJob(ctx, id)) return;
  const job = ctx.state.engine.cancel(id)!;
  sendJson(ctx, 200, jobJson(ctx, job));
}

export async function jobEvents(ctx: RequestContext, id: string): Promise<void> {
  const job = findJob(ctx, id);
  if (job) await streamJobEvents(ctx, job);
}

export function jobLogs(ctx: RequestContext, id: string): void {
  const job = findJob(ctx, id);
  if (!job) return;
  if (job.logs.length === 0) return sendEmpty(ctx, 204);
  const text = `${job.logs.join('\n')}\n`;
  ctx.res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  ctx.res.end(text);
}
