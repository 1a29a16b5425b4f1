// `dev-server --surface self-hosted` imitates a ComfyUI engine's v1 answers and WebSocket, compared
// with what a real engine answered (test/fixtures/comfyui-selfhosted).
import WebSocket from 'ws';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { decodeFrame, FRAME_PREVIEW_IMAGE, IMAGE_TYPE_PNG } from '../../src/protocol/legacy-frames.js';
import { fixture, keysOf, messageOrder } from '../helpers/comfyui-fixtures.js';
import { failingWorkflow, longWorkflow, sampleWorkflow, submit, twoNodeWorkflow, useSelfHostedServers, v1, WsRecorder } from './legacy-kit.js';

const servers = useSelfHostedServers();
let server: DevServerHandle;
let engineOnly: DevServerHandle;
beforeAll(() => {
  server = servers.server();
  engineOnly = servers.engineOnly();
});

const twoNodes = twoNodeWorkflow();

async function historyOf(s: DevServerHandle, id: string, timeoutMs = 10_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await v1(s, 'GET', `/history/${id}`);
    if (body[id]) return body[id];
    if (Date.now() > deadline) throw new Error(`no history for ${id}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Until nothing is queued or running (tests share one server with one slot). */
async function idle(s: DevServerHandle): Promise<void> {
  for (;;) {
    const { body } = await v1(s, 'GET', '/api/queue');
    if (body.queue_running.length === 0 && body.queue_pending.length === 0) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('self-hosted deployment: routes', () => {
  it('serves every route bare and under /api/, with no credential', async () => {
    for (const path of ['/object_info', '/queue', '/system_stats', '/history', '/prompt']) {
      const bare = await v1(server, 'GET', path);
      const api = await v1(server, 'GET', `/api${path}`);
      expect([path, bare.status, api.status]).toEqual([path, 200, 200]);
      expect(keysOf(bare.body)).toEqual(keysOf(api.body));
    }
    const bare = await fetch(`${server.url}/prompt`, { method: 'POST', body: JSON.stringify({ prompt: twoNodes }) });
    expect(bare.status).toBe(200);
  });

  it('answers the cloud-only routes and unknown paths as the engine\'s static route does: an empty 404 for a GET, a plain-text 405 otherwise', async () => {
    const recorded = fixture('engine-0.3.18.json').answers;
    for (const path of ['/api/job/some-id/status', '/api/jobs', '/api/features', '/api/no/such/route', '/nothing', '/api/interrupt']) {
      const res = await fetch(`${server.url}${path}`);
      expect([path, res.status, await res.text()]).toEqual([path, 404, '']);
      expect(res.headers.get('content-type')).toBe(recorded.job_status_random_uuid.headers['content-type']);
      expect([res.headers.get('content-length'), res.headers.get('transfer-encoding')]).toEqual([null, 'chunked']);
    }
    for (const path of ['/api/nothing', '/api/object_info']) {
      const posted = await fetch(`${server.url}${path}`, { method: 'POST', body: '{}' });
      expect([path, posted.status, await posted.text()]).toEqual([path, 405, '405: Method Not Allowed']);
      expect(posted.headers.get('content-type')).toMatch(/^text\/plain/);
    }
  });

  it('identifies itself in system_stats as the engine version it imitates', async () => {
    const { status, body } = await v1(server, 'GET', '/api/system_stats');
    expect(status).toBe(200);
    expect(keysOf(body, 2)).toEqual(keysOf(fixture('system-stats.json'), 2));
    expect(body.system.comfyui_version).toBe(fixture('system-stats.json').system.comfyui_version);
  });

  it('serves the job API v2 unless --engine-only, where v2 and the router are unknown paths too', async () => {
    expect((await fetch(`${server.url}/api/v2/jobs/00000000-0000-0000-0000-000000000000`)).status).toBe(404);
    expect(((await (await fetch(`${server.url}/api/v2/jobs/00000000-0000-0000-0000-000000000000`)).json()) as any).error.code).toBe('not_found');
    for (const path of ['/api/v2/jobs/00000000-0000-0000-0000-000000000000', '/v1/models']) {
      const res = await fetch(`${engineOnly.url}${path}`);
      expect([path, res.status, await res.text()]).toEqual([path, 404, '']);
    }
    const posted = await fetch(`${engineOnly.url}/api/v2/jobs`, { method: 'POST', body: '{}' });
    expect([posted.status, await posted.text()]).toEqual([405, '405: Method Not Allowed']);
  });
});

describe('self-hosted deployment: POST /prompt', () => {
  it('accepts a workflow with the recorded answer, ignoring a prompt_id the client sends', async () => {
    const { status, body } = await v1(server, 'POST', '/api/prompt', { prompt: twoNodes, prompt_id: 'mine' });
    expect(status).toBe(200);
    expect(keysOf(body)).toEqual(keysOf(fixture('prompt-accepted.json').body));
    expect(body.node_errors).toEqual({});
    expect(body.prompt_id).not.toBe('mine');
  });

  it('refuses in each recorded shape: node_errors a list or a dict, error an object or a string', async () => {
    const unknown = await v1(server, 'POST', '/api/prompt', { prompt: { '1': { class_type: 'NoSuchClass', inputs: {} } } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(fixture('prompt-unknown-class.json').body);

    const invalid = await v1(server, 'POST', '/api/prompt', {
      prompt: { '1': { class_type: 'EmptyImage', inputs: { width: 999999, height: 8, batch_size: 1, color: 0 } }, '3': { class_type: 'SaveImage', inputs: { filename_prefix: 'x' } } },
    });
    const recorded = fixture('prompt-failed-validation.json').body;
    expect(invalid.status).toBe(400);
    expect(keysOf(invalid.body, 2)).toEqual(keysOf(recorded, 2));
    expect(invalid.body.error.type).toBe(recorded.error.type);
    expect(invalid.body.error.message).toBe(recorded.error.message);
    expect(Object.keys(invalid.body.node_errors).sort()).toEqual(['1', '3']);
    for (const entry of Object.values<any>(invalid.body.node_errors)) {
      expect(keysOf(entry, 1)).toEqual(keysOf(recorded.node_errors['3'], 1));
      expect(Object.keys(entry.errors[0]).sort()).toEqual(Object.keys(recorded.node_errors['3'].errors[0]).sort());
    }
    expect(invalid.body.node_errors['3'].errors[0].type).toBe('required_input_missing');

    const noOutputs = await v1(server, 'POST', '/api/prompt', { prompt: { '1': twoNodes['1'] } });
    expect([noOutputs.status, noOutputs.body]).toEqual([400, fixture('prompt-no-outputs.json').body]);

    const noPrompt = await v1(server, 'POST', '/api/prompt', { client_id: 'x' });
    expect([noPrompt.status, noPrompt.body]).toEqual([400, fixture('prompt-no-prompt.json').body]);
  });
});

describe('self-hosted deployment: queue, history, interrupt, view', () => {
  it('lists running and pending prompts as the engine\'s tuples, and deletes pending ones with an empty 200', async () => {
    await idle(server);
    const running = await submit(server, longWorkflow('run', 2));
    const pending = await submit(server, longWorkflow('wait', 2));
    const { body } = await v1(server, 'GET', '/queue');
    expect(keysOf(body)).toEqual(keysOf(fixture('queue.json')));
    const recordedTuple = fixture('queue.json').queue_pending[0];
    const tuple = body.queue_pending.find((e: unknown[]) => e[1] === pending);
    expect(tuple.map((x: unknown) => typeof x)).toEqual(recordedTuple.map((x: unknown) => typeof x));
    expect(body.queue_running.map((e: unknown[]) => e[1])).toContain(running);

    const deleted = await fetch(`${server.url}/api/queue`, { method: 'POST', body: JSON.stringify({ delete: [pending, running] }) });
    expect([deleted.status, await deleted.text()]).toEqual([200, '']);
    const after = (await v1(server, 'GET', '/api/queue')).body;
    expect(after.queue_pending.map((e: unknown[]) => e[1])).not.toContain(pending);
    expect(after.queue_running.map((e: unknown[]) => e[1])).toContain(running); // delete leaves a running prompt alone

    const interrupted = await fetch(`${server.url}/interrupt`, { method: 'POST' });
    expect([interrupted.status, await interrupted.text()]).toEqual([200, '']);
    const entry = await historyOf(server, running);
    expect(entry.status.status_str).toBe('error');
    expect(entry.status.messages.map((m: unknown[]) => m[0])).toEqual(['execution_start', 'execution_cached', 'execution_interrupted']);
    expect((await v1(server, 'GET', `/api/history/${pending}`)).body).toEqual({}); // deleted before it ran: never in the history
  });

  it('answers {} while a prompt runs, then its history entry in the recorded shape', async () => {
    await idle(server);
    const id = await submit(server, longWorkflow('hist', 1));
    expect((await v1(server, 'GET', `/api/history/${id}`)).body).toEqual({});
    await fetch(`${server.url}/api/interrupt`, { method: 'POST' });
    await historyOf(server, id);
    const done = await submit(server, twoNodes);
    const entry = await historyOf(server, done);
    const recorded = fixture('history-success.json').PROMPT;
    expect(keysOf(entry)).toEqual(keysOf(recorded));
    expect(keysOf(entry.status)).toEqual(keysOf(recorded.status));
    expect(keysOf(entry.meta['2'])).toEqual(keysOf(recorded.meta['3']));
    expect(entry.prompt.map((x: unknown) => typeof x)).toEqual(recorded.prompt.map((x: unknown) => typeof x));
    expect(entry.status.messages.map((m: unknown[]) => m[0])).toEqual(recorded.status.messages.map((m: unknown[]) => m[0]));
    expect(entry.outputs['2'].images[0]).toMatchObject({ subfolder: '', type: 'output', filename: expect.stringMatching(/^engine_\d+_\.png$/) });
    const all = (await v1(server, 'GET', '/api/history?max_items=1')).body;
    expect(Object.keys(all)).toEqual([done]);
  });

  it('serves /view with the bytes (200, no redirect); a missing file is a 404 with an empty body', async () => {
    const id = await submit(server, twoNodes);
    const file = (await historyOf(server, id)).outputs['2'].images[0];
    const res = await fetch(`${server.url}/api/view?filename=${file.filename}&subfolder=&type=output`, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    const missing = await fetch(`${server.url}/view?filename=nope.png&type=output`);
    expect([missing.status, await missing.text()]).toEqual([404, '']);
  });
});

describe('self-hosted deployment: the WebSocket', () => {
  it('sends one prompt\'s messages in the recorded order to the client that submitted it, `executing` node:null last', async () => {
    const ws = await WsRecorder.open(server);
    try {
      const id = await submit(server, twoNodes, undefined, { client_id: ws.clientId });
      await ws.until(() => ws.json().some((m) => m.type === 'executing' && m.data.node === null && m.data.prompt_id === id));
      await ws.until(() => ws.json().filter((m) => m.type === 'status').length >= 3);
      const messages = ws.json();
      expect(messageOrder(messages)).toEqual(messageOrder(fixture('ws-success.json').messages));
      expect(messages.filter((m) => m.type === 'status').every((m) => m.data.prompt_id === undefined)).toBe(true);
      expect(messages.some((m) => m.type === 'progress_state' || m.type === 'notification')).toBe(false);
      const executed = messages.find((m) => m.type === 'executed')!;
      expect(keysOf(executed.data, 2)).toEqual(keysOf(fixture('ws-success.json').messages[7].data, 2));
    } finally {
      ws.close();
    }
  });

  it('ends a failing prompt with execution_error, status, then executing node:null', async () => {
    const ws = await WsRecorder.open(server);
    try {
      const id = await submit(server, failingWorkflow(), undefined, { client_id: ws.clientId });
      await ws.until(() => ws.json(id).some((m) => m.type === 'executing' && m.data.node === null));
      const order = messageOrder(ws.json().filter((m) => m.type !== 'status' || ws.json().indexOf(m) > 0));
      expect(order.slice(-3)).toEqual(messageOrder(fixture('ws-error.json').messages).slice(-3));
      const error = ws.json(id).find((m) => m.type === 'execution_error')!;
      expect(Object.keys(error.data).sort()).toEqual(Object.keys(fixture('ws-error.json').messages[6].data).sort());
    } finally {
      ws.close();
    }
  });

  it('sends previews as type-1 frames with the image format, never type 4, and serves /api/ws too', async () => {
    const url = `${server.url.replace(/^http/, 'ws')}/api/ws?clientId=engine-test`;
    const ws = new WebSocket(url);
    const frames: Buffer[] = [];
    const ended = new Promise<void>((resolve) =>
      ws.on('message', (data: Buffer, binary: boolean) => {
        if (binary) frames.push(Buffer.from(data));
        else if (JSON.parse(data.toString()).type === 'execution_success') resolve();
      }),
    );
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(JSON.stringify({ type: 'feature_flags', data: { supports_preview_metadata: true } }));
    // The server reads a connection's frames in order: its answer to this ping means it has read the flags.
    await new Promise<void>((resolve) => ws.once('pong', () => resolve()).ping());
    await submit(server, sampleWorkflow(4), undefined, { client_id: 'engine-test' });
    await ended;
    ws.terminate();
    expect(frames.length).toBeGreaterThan(0);
    for (const bytes of frames) {
      expect(bytes.readUInt32BE(0)).toBe(FRAME_PREVIEW_IMAGE);
      expect(bytes.readUInt32BE(4)).toBe(IMAGE_TYPE_PNG);
      const decoded = decodeFrame(bytes);
      expect(decoded.ok && decoded.frame.type).toBe(FRAME_PREVIEW_IMAGE);
    }
  });
});
