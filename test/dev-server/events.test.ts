// The job event stream as the published contract defines it: `status` {status, queue_position},
// `progress` complete snapshots, `preview` {node_id, content_type, data_base64}, `output` one
// Output, no `log`, no `id:` lines, `: keepalive` comments; on connect the current status, the
// latest progress and the most recent preview; the end after a terminal status.
import { describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { getJson, imageWorkflow, postJson, readEventStream, serverUrl, streamedProgress, submitJob, useDevServer, v2Auth, waitForJob, type Json } from '../helpers/dev-server.js';

const PREVIEW_FIELDS = ['content_type', 'data_base64', 'node_id'];
const PROGRESS_REQUIRED = ['nodes_done', 'nodes_total', 'value'];

function openStream(server: DevServerHandle, job: Json): Promise<Response> {
  return fetch(serverUrl(server, job.urls.events), { headers: v2Auth(server) });
}

/** Follows the stream until the running job has shown at least `step` sampler steps (Cloud polls no progress). */
async function waitForStep(server: DevServerHandle, job: Json, step: number): Promise<void> {
  await streamedProgress(server, job, (progress) => (progress.step ?? 0) >= step);
}

describe('job API v2 event stream, as published (cloud)', () => {
  const ctx = useDevServer({ stepMs: 10, keepaliveMs: 20 });

  it('streams status, progress, preview and output payloads in their published shapes, no log, no id lines, then ends', async () => {
    const job = (await submitJob(ctx.server, imageWorkflow({ steps: 4 }))).body;
    const res = await openStream(ctx.server, job);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const { events, comments, raw } = await readEventStream(res);
    const names = new Set(events.map((e) => e.event));
    for (const name of ['status', 'progress', 'preview', 'output']) expect(names).toContain(name);
    expect(names).not.toContain('log');
    expect(raw).not.toMatch(/^id:/m);
    expect(comments).toContain('keepalive');

    for (const status of events.filter((e) => e.event === 'status')) expect(Object.keys(status.data).sort()).toEqual(['queue_position', 'status']);
    const preview = events.find((e) => e.event === 'preview')!.data;
    expect(Object.keys(preview).sort()).toEqual(PREVIEW_FIELDS);
    expect(preview.content_type).toBe('image/png');
    expect(Buffer.from(preview.data_base64, 'base64').subarray(1, 4).toString()).toBe('PNG');
    for (const progress of events.filter((e) => e.event === 'progress')) {
      for (const field of PROGRESS_REQUIRED) expect(progress.data).toHaveProperty(field);
    }
    const steps = events.filter((e) => e.event === 'progress' && e.data.current_node_class === 'Sample').map((e) => e.data.step);
    expect(steps).toEqual(expect.arrayContaining([1, 2, 3, 4]));

    const done = (await getJson(ctx.server, job.urls.self)).body;
    const output = events.find((e) => e.event === 'output')!.data;
    expect({ ...output, url: null, url_expires_at: null }).toEqual({ ...done.outputs[0], url: null, url_expires_at: null });
    expect(events[events.length - 1]).toEqual({ event: 'status', data: { status: 'succeeded', queue_position: null } });
  });

  it('on connect to a running job sends its status, the latest progress and the most recent preview', async () => {
    const job = (await submitJob(ctx.server, imageWorkflow({ steps: 150 }))).body;
    await waitForStep(ctx.server, job, 2);
    const res = await openStream(ctx.server, job);
    const reading = readEventStream(res);
    await postJson(ctx.server, job.urls.cancel, {});
    const { events } = await reading;
    expect(events.slice(0, 3).map((e) => e.event)).toEqual(['status', 'progress', 'preview']);
    expect(events[0]!.data).toEqual({ status: 'running', queue_position: null });
    expect(events[1]!.data.step).toBeGreaterThanOrEqual(2);
    expect(events[2]!.data.node_id).toBe('2');
  });

  it('tells a queued job its queue position, then its start', async () => {
    const first = (await submitJob(ctx.server, imageWorkflow({ steps: 150 }))).body;
    const second = (await submitJob(ctx.server, imageWorkflow({ steps: 1 }))).body;
    const stream = await openStream(ctx.server, second); // the snapshot is written with the headers
    await postJson(ctx.server, first.urls.cancel, {});
    const { events } = await readEventStream(stream);
    const statuses = events.filter((e) => e.event === 'status').map((e) => e.data);
    expect(statuses[0]).toEqual({ status: 'queued', queue_position: 0 });
    expect(statuses.map((s) => s.status)).toEqual(['queued', 'running', 'succeeded']);
  });

  it('connecting to a finished job gives its status, then its outputs, then the end (as the reference server)', async () => {
    const job = (await submitJob(ctx.server, imageWorkflow({ steps: 1 }))).body;
    const done = await waitForJob(ctx.server, job.urls.self, ['succeeded']);
    const { events } = await readEventStream(await openStream(ctx.server, job));
    expect(events.map((e) => e.event)).toEqual(['status', 'output']);
    expect(events[0]!.data).toEqual({ status: 'succeeded', queue_position: null });
    expect(events[1]!.data.id).toBe(done.outputs[0].id);
  });

  it('ends the stream with canceled after a cancel', async () => {
    const job = (await submitJob(ctx.server, imageWorkflow({ steps: 150 }))).body;
    await waitForJob(ctx.server, job.urls.self, ['running']);
    const reading = readEventStream(await openStream(ctx.server, job));
    await postJson(ctx.server, job.urls.cancel, {});
    const { events } = await reading;
    const statuses = events.filter((e) => e.event === 'status').map((e) => e.data.status);
    expect(statuses).toContain('canceling');
    expect(statuses[statuses.length - 1]).toBe('canceled');
  });
});

describe('job API v2 event stream on the self-hosted deployment (the reference server)', () => {
  // A cancel that works ends the blocker below at once (the reference server's lets it run on).
  const ctx = useDevServer({ deployment: 'self-hosted', stepMs: 5, cancel: 'effective' });

  it('names queue_position only while queued, counting the running job, as the reference server does', async () => {
    const first = (await submitJob(ctx.server, imageWorkflow({ steps: 150 }))).body;
    const second = (await submitJob(ctx.server, imageWorkflow({ steps: 1 }))).body;
    const stream = await openStream(ctx.server, second);
    await postJson(ctx.server, first.urls.cancel, {});
    const { events } = await readEventStream(stream);
    const statuses = events.filter((e) => e.event === 'status').map((e) => e.data);
    expect(statuses[0]).toEqual({ status: 'queued', queue_position: 1 });
    expect(statuses.slice(1)).toEqual([{ status: 'running' }, { status: 'succeeded' }]);
  });
});
