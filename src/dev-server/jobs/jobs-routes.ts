// Job reads and control: get, cancel, the workflow behind a job, logs, events.
import type { EngineJob, RequestContext } from '../contract.js';
import { sendEmpty, sendJson, sendJobsError } from '../http-kit.js';
import type { JobWorkflowResponse } from '../../protocol/jobs.js';
import { streamJobEvents } from './events.js';
import { notFoundCode } from './dialect.js';
import { openStream } from './stream-limit.js';
import { jobJson, jobLogs as finishedLogs } from './view.js';

/** Whether this job is one the request's deployment serves (serverless: the same deployment). */
export function servedHere(ctx: RequestContext, job: EngineJob): boolean {
  return (job.deployment_id ?? null) === (ctx.deploymentId ?? null);
}

/** The job when this deployment serves it; otherwise answers 404. */
function findJob(ctx: RequestContext, id: string): EngineJob | undefined {
  const job = ctx.state.engine.get(id);
  if (job && servedHere(ctx, job)) return job;
  sendJobsError(ctx, 404, notFoundCode(ctx, 'job'), `no job ${id} (it may have passed its retention)`);
  return undefined;
}

export function getJob(ctx: RequestContext, id: string): void {
  const job = findJob(ctx, id);
  if (job) sendJson(ctx, 200, jobJson(ctx, job, { withLogs: true }));
}

export function cancelJob(ctx: RequestContext, id: string): void {
  if (!findJob(ctx, id)) return;
  const job = ctx.state.engine.cancel(id)!;
  sendJson(ctx, 200, jobJson(ctx, job));
}

/** The graph as executed (typed references resolved), never the submit's extra_data. */
export function jobWorkflow(ctx: RequestContext, id: string): void {
  const job = findJob(ctx, id);
  if (!job) return;
  const answer: JobWorkflowResponse = { workflow: job.workflow, format: 'api' };
  sendJson(ctx, 200, answer);
}

export async function jobEvents(ctx: RequestContext, id: string): Promise<void> {
  const job = findJob(ctx, id);
  if (!job) return;
  const stream = openStream(ctx);
  if (!stream) return;
  ctx.res.on('close', stream.close);
  await streamJobEvents(ctx, job);
}

/**
 * The logs operation: JSON `{text, truncated, captured_at}` once the run has finished (the later
 * published revision; 204 before), or `text/plain` lines so far (`logsFormat: 'text'`); 204 when
 * the job printed nothing.
 */
export function jobLogs(ctx: RequestContext, id: string): void {
  const job = findJob(ctx, id);
  if (!job) return;
  if (ctx.state.options.logsFormat === 'json') {
    const logs = finishedLogs(job);
    return logs ? sendJson(ctx, 200, logs) : sendEmpty(ctx, 204);
  }
  if (job.logs.length === 0) return sendEmpty(ctx, 204);
  const text = `${job.logs.join('\n')}\n`;
  ctx.res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  ctx.res.end(text);
}
