// GET {urls.events}: server-sent events derived from the job object. A snapshot on connect
// (status, progress, committed outputs), live updates, keepalive comments, and the stream ends
// after a terminal status.
import type { EngineEvent, EngineJob, EngineStatus, RequestContext } from '../contract.js';
import { TERMINAL } from '../engine/engine.js';
import { jobJson, outputJson } from './view.js';

export async function streamJobEvents(ctx: RequestContext, job: EngineJob): Promise<void> {
  const { res, state } = ctx;
  const { engine } = state;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let sequence = 0;
  let ended = false;
  const send = (event: string, data: unknown): void => {
    if (!ended) res.write(`id: ${++sequence}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const sendProgress = (): void => {
    if (job.progress) send('progress', job.progress);
  };

  const onJob = (id: string, event: EngineEvent): void => {
    if (id !== job.id) return;
    switch (event.type) {
      case 'queued':
        if (job.status === 'queued') send('status', jobJson(ctx, job));
        return;
      case 'node_start':
      case 'progress':
      case 'node_done':
        return sendProgress();
      case 'output':
        return send('output', outputJson(ctx, event.output));
      case 'preview':
        return send('preview', { node_id: event.node, content_type: `image/${event.format}`, data: event.bytes.toString('base64') });
      case 'log':
        return send('log', { line: event.line });
      default:
        return;
    }
  };
  const onStatus = (id: string, status: EngineStatus): void => {
    if (id !== job.id) return;
    if (TERMINAL.has(status)) sendProgress();
    send('status', jobJson(ctx, job));
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

  send('status', jobJson(ctx, job));
  sendProgress();
  for (const output of job.outputs) send('output', outputJson(ctx, output));
  if (TERMINAL.has(job.status)) return finish();
  engine.events.on('job', onJob);
  engine.events.on('status', onStatus);
}
