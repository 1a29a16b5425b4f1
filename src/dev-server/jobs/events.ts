// GET {urls.events}: server-sent events as the published contract defines them. On connect the
// current `status`, the latest `progress` and the most recent `preview`; then live updates and
// `: keepalive` comments; the stream ends after a terminal `status`. No `id:` lines (no resume),
// no `log` events (reserved). Connecting to a finished job gives its `status`, then its outputs
// as `output` events, then the end, as the reference self-hosted server does.
import type { EngineEvent, EngineJob, EngineStatus, RequestContext } from '../contract.js';
import { TERMINAL } from '../engine/engine.js';
import type { PreviewEvent, StatusEvent } from '../../protocol/jobs.js';
import { outputJson } from './view.js';
import { raceOf } from '../faults/races.js';

/**
 * The `status` payload. The reference self-hosted server names `queue_position` only while the
 * job is queued, counting the running job (the next in line is 1), as on its polled job; the
 * hosted deployments always carry it (null when not queued, 0 for the next in line).
 */
export function statusEvent(ctx: RequestContext, job: EngineJob, position = ctx.state.engine.queuePosition(job.id)): StatusEvent {
  if (ctx.state.options.deployment !== 'self-hosted') return { status: job.status, queue_position: job.status === 'queued' ? position : null };
  if (job.status !== 'queued' || position === null) return { status: job.status };
  return { status: job.status, queue_position: position + 1 };
}

function previewEvent(preview: NonNullable<EngineJob['latestPreview']>): PreviewEvent {
  return { node_id: preview.node, content_type: `image/${preview.format}`, data_base64: preview.bytes.toString('base64') };
}

export async function streamJobEvents(ctx: RequestContext, job: EngineJob): Promise<void> {
  const { res, state } = ctx;
  const { engine } = state;
  res.writeHead(200, {
    // The reference server names no charset.
    'content-type': ctx.state.options.deployment === 'self-hosted' ? 'text/event-stream' : 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  if (ctx.req.method === 'HEAD') return void res.end();
  const race = raceOf(ctx.req);
  let ended = false;
  const send = (event: string, data: unknown): void => {
    if (!ended) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  // The stream carries the engine's real progress even where a polled job shows none (self-hosted).
  let progressSent = false;
  const sendProgress = (): void => {
    if (!job.progress) return;
    send('progress', job.progress);
    progressSent = true;
    // Race `end-running`: the stream's last word is `running`, right after its first progress.
    if (race === 'end-running' && job.status === 'running') endOn({ status: 'running' });
  };
  const sendOutputs = (): void => {
    for (const output of job.outputs) send('output', outputJson(ctx, output));
  };
  const endOn = (status: StatusEvent): void => {
    send('status', status);
    finish();
  };
  /** The terminal status and the end; the outputs after the status when the race asks for it. */
  const sendEnd = (): void => {
    sendProgress();
    if (race === 'end-running') return endOn({ status: 'running' });
    send('status', statusEvent(ctx, job));
    if (race === 'output-after' || race === 'late') sendOutputs();
    finish();
  };

  const onJob = (id: string, event: EngineEvent): void => {
    if (id !== job.id || race === 'late') return;
    switch (event.type) {
      case 'queued':
        if (job.status === 'queued') send('status', statusEvent(ctx, job, event.queue_position));
        return;
      case 'node_start':
      case 'progress':
      case 'node_done':
        return sendProgress();
      case 'output':
        if (race === 'output-after' || race === 'end-running') return;
        return send('output', outputJson(ctx, event.output));
      case 'preview':
        return send('preview', previewEvent(event));
      default:
        return;
    }
  };
  const onStatus = (id: string, status: EngineStatus): void => {
    if (id !== job.id || race === 'late') return;
    if (TERMINAL.has(status)) return sendEnd();
    send('status', statusEvent(ctx, job));
  };
  const keepalive = setInterval(() => {
    if (ended) return;
    res.write(': keepalive\n\n');
    // Race `late`: the stream never heard the job end; a keep-alive tick finds it over.
    if (race === 'late' && TERMINAL.has(job.status)) sendEnd();
  }, state.options.keepaliveMs);
  const cleanup = (): void => {
    ended = true;
    clearInterval(keepalive);
    engine.events.off('job', onJob);
    engine.events.off('status', onStatus);
  };
  const finish = (): void => {
    if (ended) return;
    cleanup();
    res.end();
  };
  res.on('close', cleanup);

  if (race === 'end-expired') return endOn({ status: 'expired' });
  if (TERMINAL.has(job.status) && race !== 'late') {
    send('status', statusEvent(ctx, job));
    sendOutputs();
    return finish();
  }
  // Race `late` on a job already over: nothing until the keep-alive tick finds it so.
  if (TERMINAL.has(job.status)) return;
  send('status', statusEvent(ctx, job));
  if (!progressSent) sendProgress();
  if (job.latestPreview) send('preview', previewEvent(job.latestPreview));
  engine.events.on('job', onJob);
  engine.events.on('status', onStatus);
}
