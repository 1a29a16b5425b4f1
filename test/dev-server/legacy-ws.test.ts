// The legacy API WebSocket `/ws` of the dev-server: handshake rules, JSON messages through a run,
// binary frames byte by byte, interleaved prompts and the scripted socket faults.
import { describe, expect, it } from 'vitest';
import { decodeFrame } from '../../src/protocol/legacy-frames.js';
import { addFaults, startFast, useDevServer } from '../helpers/dev-server.js';
import { failingWorkflow, sampleWorkflow, submit, v1, waitForStatus, WsRecorder } from './legacy-kit.js';

function u32(bytes: Buffer, at: number): number {
  return bytes.readUInt32BE(at);
}

describe('the legacy API WebSocket', () => {
  const ctx = useDevServer({ faults: true, slots: 2, stepMs: 4 });

  it('refuses a wrong or missing token with 401 and a forbidden one with 403', async () => {
    await expect(WsRecorder.open(ctx.server, { token: 'wrong' })).rejects.toMatchObject({ status: 401 });
    await expect(WsRecorder.open(ctx.server, { token: null })).rejects.toMatchObject({ status: 401 });
    await expect(WsRecorder.open(ctx.server, { token: 'wes-dev-forbidden' })).rejects.toMatchObject({ status: 403 });
  });

  it('greets with the queue status and sends every message type of a run, tagged with prompt_id', async () => {
    const ws = await WsRecorder.open(ctx.server);
    await ws.until(() => ws.json().length > 0);
    expect(ws.json()[0]).toMatchObject({ type: 'status', data: { status: { exec_info: { queue_remaining: expect.any(Number) } }, sid: expect.any(String) } });
    const id = await submit(ctx.server, sampleWorkflow(3, 'ws-run'));
    await ws.untilType('execution_success', id);
    const ours = ws.json(id);
    const types = ours.map((m) => m.type);
    for (const type of ['status', 'notification', 'execution_start', 'execution_cached', 'executing', 'progress', 'progress_state', 'executed', 'execution_success']) {
      expect(types).toContain(type);
    }
    expect(types.indexOf('execution_start')).toBeLessThan(types.indexOf('executing'));
    expect(ours.filter((m) => m.type === 'executing').map((m) => m.data.node)).toEqual(['1', '2', '3', null]);
    expect(ours.filter((m) => m.type === 'progress').map((m) => [m.data.node, m.data.value, m.data.max])).toEqual([
      ['2', 1, 3],
      ['2', 2, 3],
      ['2', 3, 3],
    ]);
    const executed = ours.find((m) => m.type === 'executed')!;
    expect(executed.data).toMatchObject({ node: '3', prompt_id: id, output: { images: [{ filename: 'ws-run_00001_.png', subfolder: '', type: 'output' }] } });
    const lastState = ours.filter((m) => m.type === 'progress_state').pop()!;
    expect(lastState.data.nodes['3']).toMatchObject({ state: 'finished', node_id: '3', prompt_id: id, display_node_id: '3', parent_node_id: null, real_node_id: '3' });
    expect(ours.find((m) => m.type === 'execution_cached')!.data.nodes).toEqual([]);
    ws.close();
  });

  it('sends type-1 previews and type-3 text frames laid out per the interface', async () => {
    const ws = await WsRecorder.open(ctx.server);
    const id = await submit(ctx.server, sampleWorkflow(2, 'ws-plain'));
    await ws.untilType('execution_success', id);
    const frames = ws.binary();
    const previews = frames.filter((b) => u32(b, 0) === 1);
    const texts = frames.filter((b) => u32(b, 0) === 3);
    expect(previews.length).toBeGreaterThanOrEqual(2);
    for (const frame of previews) {
      expect(u32(frame, 4)).toBe(2); // PNG
      expect(frame.subarray(8, 16)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(decodeFrame(frame).ok).toBe(true);
    }
    const text = texts.find((b) => b.subarray(8 + u32(b, 4)).toString() === 'step 2/2')!;
    expect(u32(text, 4)).toBe(1);
    expect(text.subarray(8, 9).toString()).toBe('2');
    ws.close();
  });

  it('sends type-4 previews with metadata to a connection that asked for them', async () => {
    const ws = await WsRecorder.open(ctx.server, { metadata: true });
    const id = await submit(ctx.server, sampleWorkflow(2, 'ws-meta'));
    await ws.untilType('execution_success', id);
    const frames = ws.binary().filter((b) => u32(b, 0) === 4);
    expect(frames.length).toBe(2);
    for (const frame of frames) {
      const len = u32(frame, 4);
      const metadata = JSON.parse(frame.subarray(8, 8 + len).toString());
      expect(metadata).toEqual({ node_id: '2', display_node_id: '2', real_node_id: '2', prompt_id: id, parent_node_id: null, image_type: 'image/png' });
      expect(frame.subarray(8 + len, 8 + len + 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    }
    expect(ws.binary().some((b) => u32(b, 0) === 1)).toBe(false);
    ws.close();
  });

  it('reports execution_error with the exception fields, and execution_interrupted', async () => {
    const ws = await WsRecorder.open(ctx.server);
    const failing = await submit(ctx.server, failingWorkflow('kaput'));
    await ws.untilType('execution_error', failing);
    const error = ws.json(failing).find((m) => m.type === 'execution_error')!;
    expect(error.data).toMatchObject({ prompt_id: failing, node_id: '1', node_type: 'Fail', exception_type: 'RuntimeError', exception_message: 'kaput' });
    expect(error.data.traceback.join('')).toContain('Traceback');

    const long = await submit(ctx.server, sampleWorkflow(150, 'ws-interrupt'));
    await ws.untilType('progress', long);
    await v1(ctx.server, 'POST', '/api/interrupt');
    await ws.untilType('execution_interrupted', long);
    expect(ws.json(long).find((m) => m.type === 'execution_interrupted')!.data).toMatchObject({ node_id: '2', node_type: 'Sample' });
    ws.close();
  });

  it('sends every connection of the user all messages of interleaved prompts', async () => {
    const [a, b] = await Promise.all([WsRecorder.open(ctx.server), WsRecorder.open(ctx.server)]);
    const first = await submit(ctx.server, sampleWorkflow(6, 'inter-a', 1));
    const second = await submit(ctx.server, sampleWorkflow(6, 'inter-b', 2));
    for (const ws of [a, b]) {
      await ws.untilType('execution_success', first);
      await ws.untilType('execution_success', second);
    }
    const progressOrder = a.json().filter((m) => m.type === 'progress' && [first, second].includes(m.data.prompt_id)).map((m) => m.data.prompt_id);
    const switches = progressOrder.filter((p, i) => i > 0 && p !== progressOrder[i - 1]).length;
    expect(switches).toBeGreaterThan(1); // the two runs overlapped on two slots
    expect(b.json(first).map((m) => m.type)).toEqual(a.json(first).map((m) => m.type));
    a.close();
    b.close();
  });
});

describe('the legacy API WebSocket faults', () => {
  it('drops a connection after some bytes, refuses a handshake, truncates and corrupts a frame', async () => {
    const server = await startFast({ faults: true, stepMs: 4 });
    try {
      await addFaults(server, [{ match: 'GET /ws', action: 'status', status: 503, body: { error: { type: 'busy', message: 'try later' } } }]);
      await expect(WsRecorder.open(server)).rejects.toMatchObject({ status: 503 });

      await addFaults(server, [{ match: 'GET /ws', action: 'drop', after_bytes: 600 }]);
      const dropped = await WsRecorder.open(server);
      const id = await submit(server, sampleWorkflow(20, 'drop'));
      await new Promise<void>((resolve) => dropped.ws.once('close', () => resolve()));
      expect(dropped.json(id).some((m) => m.type === 'execution_success')).toBe(false);
      await waitForStatus(server, id, ['success']);

      await addFaults(server, [{ match: 'GET /ws', action: 'truncate' }]);
      const truncated = await WsRecorder.open(server);
      await addFaults(server, [{ match: 'GET /ws', action: 'corrupt' }]);
      const corrupted = await WsRecorder.open(server);
      const run = await submit(server, sampleWorkflow(3, 'faulty'));
      await truncated.untilType('execution_success', run);
      await corrupted.untilType('execution_success', run);
      const truncatedPreviews = truncated.binary().filter((b) => u32(b, 0) === 1);
      expect(decodeFrame(truncatedPreviews[0]!)).toEqual({ ok: false, reason: expect.stringContaining('truncated') });
      expect(truncatedPreviews.slice(1).every((b) => decodeFrame(b).ok)).toBe(true);
      const bad = corrupted.binary().filter((b) => !decodeFrame(b).ok);
      expect(bad.length).toBe(1);
      expect(decodeFrame(bad[0]!)).toEqual({ ok: false, reason: expect.stringContaining('unknown binary frame type') });
      truncated.close();
      corrupted.close();
    } finally {
      await server.close();
    }
  });
});
