// GET {urls.events}: server-sent events as the published contract defines them. On connect the
// current `status`, the latest `progress` and the most recent `preview`; then live updates and
// `: keepalive` comments; the stream ends after a terminal `status`. No `id:` lines (no resume),
// no `log` events (reserved). Connecting to a finished job gives its `status`, then its outputs
// as `output` events, then the end, as the reference self-hosted server does.
import type { EngineEvent, EngineJob, EngineStatus, RequestContext } from '../contract.js';
import { TERMINAL } from '../engine/engine.js';
import type { PreviewEvent, StatusEvent } from '../../protocol/jobs.js';
import { outputJson } from './view.js';

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
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let ended = false;
  const send = (event: string, data: unknown): void => {
    if (!ended) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  // The stream carries the engine's real progress even where a polled job shows none (self-hosted).
  const sendProgress = (): void => {
    if (job.progress) send('progress', job.progress);
  };

  const onJob = (id: string, event: EngineEvent): void => {
    if (id !== job.id) return;
    switch (event.type) {
      case 'queued':
        if (job.status === 'queued') send('status', statusEvent(ctx, job, event.queue_position));
        return;
      case 'node_start':
      case 'progress':
      case 'node_done':
        return sendProgress();
      case 'output':
        return send('output', outputJson(ctx, event.output));
      case 'preview':
        return send('preview', previewEvent(event));
      default:
        return;
    }
  };
  const onStatus = (id: string, status: EngineStatus): void => {
    if (id !== job.id) return;
    if (TERMINAL.has(status)) sendProgress();
    send('status', statusEvent(ctx, job));
    if (TERMINAL.has(status)) finish();
  };
  const keepalive = setInterval(() => {
    if (!ended) res.write(': keepalive\n\n');
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

  send('status', statusEvent(ctx, job));
  if (TERMINAL.has(job.status)) {
    for (const output of job.outputs) send('output', outputJson(ctx, output));
    return finish();
  }
  sendProgress();
  if (job.latestPreview) send('preview', previewEvent(job.latestPreview));
  engine.events.on('job', onJob);
  engine.events.on('status', onStatus);
}
