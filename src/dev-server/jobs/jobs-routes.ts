// Job reads and control: get, cancel, the workflow behind a job, logs, events.
import type { EngineJob, RequestContext } from '../contract.js';
import { sendEmpty, sendJson, sendJobsError } from '../http-kit.js';
import type { JobWorkflowResponse } from '../../protocol/jobs.js';
import { streamJobEvents } from './events.js';
import { raceOf } from '../faults/races.js';
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
  const message = ctx.state.options.deployment === 'self-hosted' ? `No job ${id}.` : `no job ${id} (it may have passed its retention)`;
  sendJobsError(ctx, 404, notFoundCode(ctx, 'job'), message);
  return undefined;
}

export function getJob(ctx: RequestContext, id: string): void {
  const job = findJob(ctx, id);
  if (!job) return;
  // The reference server's race at completion: one read says `expired`, with nothing in it.
  const said = raceOf(ctx.req) === 'expired-read' ? { ...job, status: 'expired' as const, outputs: [], progress: null, error: null } : job;
  sendJson(ctx, 200, jobJson(ctx, said, { withLogs: true }));
}

/**
 * With `cancel: 'ignored'` (the reference server in front of ComfyUI 0.3.64, whose engine lacks the
 * route it forwards cancels to) the answer is 200 and nothing changes: a queued job is answered
 * still queued, a running one as `canceling` while it runs on to its end.
 */
export function cancelJob(ctx: RequestContext, id: string): void {
  const found = findJob(ctx, id);
  if (!found) return;
  if (ctx.state.options.cancel === 'ignored') {
    const said = found.status === 'running' ? { ...found, status: 'canceling' as const } : found;
    return sendJson(ctx, 200, jobJson(ctx, said));
  }
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
