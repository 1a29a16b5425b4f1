// `wes legacy watch` and `prompt --ws` run in-process: WebSocket filtering, binary
// frames saved byte-exact, malformed frames, drops and reconnects, handshake refusals, outcomes.
// Each test has a dev-server (its faults, sockets, request counts and engine pace) and a folder of
// its own, so the tests run side by side: most of the file is waiting on prompts and sockets.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeFrame, FRAME_PREVIEW_IMAGE, FRAME_PREVIEW_IMAGE_WITH_METADATA } from '../../src/protocol/legacy-frames.js';
import { addFaults } from '../helpers/dev-server.js';
import { hurried, hurriedFrom } from '../helpers/hurry.js';
import { failingWorkflow, longWorkflow, sampleWorkflow, submit, v1, waitForStatus, WsRecorder } from '../dev-server/legacy-kit.js';
import { countOf, LEGACY_KEY, ndjson, until, useLegacyServerPerTest } from './legacy-kit.js';

/** A dev-server and a temp folder for one test. */
const own = useLegacyServerPerTest({ apiKey: LEGACY_KEY, faults: true, slots: 2, stepMs: 4 }, 'wes-legacy-ws-');

function previewImages(recorder: WsRecorder, promptId: string, type: number): Buffer[] {
  return recorder
    .binary()
    .map((bytes) => decodeFrame(bytes))
    .flatMap((d) => (d.ok && d.frame.type === type && (d.frame.type !== FRAME_PREVIEW_IMAGE_WITH_METADATA || d.frame.metadata.prompt_id === promptId) ? [Buffer.from((d.frame as { image: Uint8Array }).image)] : []));
}

function savedFiles(folder: string): Buffer[] {
  return readdirSync(folder)
    .sort()
    .map((name) => readFileSync(join(folder, name)));
}

describe.concurrent('wes legacy watch', () => {
  it('shows only its own prompt while another runs interleaved, as NDJSON ending with the final state', async () => {
    const kit = await own();
    const ours = await submit(kit.server, longWorkflow('ours', 3));
    const theirs = await submit(kit.server, longWorkflow('theirs', 3));
    const res = await kit.wes(['legacy', 'watch', ours, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).not.toContain(theirs);
    const lines = ndjson(res.stdout);
    expect(lines.pop()).toEqual({ prompt_id: ours, status: 'success' });
    const messages = lines.filter((l) => typeof l.data === 'object');
    expect(messages.length).toBeGreaterThan(10);
    expect(messages.every((m) => m.data.prompt_id === ours)).toBe(true);
    expect(messages.map((m) => m.type)).toContain('execution_success');
    expect(lines.find((l) => l.type === 'PREVIEW_IMAGE_WITH_METADATA')).toMatchObject({ node_id: expect.stringMatching(/^[234]$/), bytes: expect.any(Number) }); // one of its samplers (a late start misses the first)
    // The other prompt was not cut short by ours ending (it started a moment later, so it may end
    // a moment later: on a loaded machine, several seconds).
    expect(['queued', 'running', 'succeeded']).toContain(kit.server.state.engine.get(theirs)?.status);
    await hurried(kit.server, () => until(() => kit.server.state.engine.get(theirs)?.status === 'succeeded', 'the other prompt to succeed', 25_000));
  });

  it('saves type-4 previews byte-exact, named by node and sequence', async () => {
    const kit = await own();
    const recorder = await WsRecorder.open(kit.server, { metadata: true });
    const previews = join(kit.dir, 'meta');
    const res = await kit.wes(['legacy', 'prompt', kit.file('meta.json', sampleWorkflow(4, 'meta')), '--previews', previews]);
    expect(res.code, res.stderr).toBe(0);
    const id = res.stdout.trim();
    await recorder.untilType('execution_success', id);
    expect(readdirSync(previews).sort()).toEqual(['node-2-0001.png', 'node-2-0002.png', 'node-2-0003.png', 'node-2-0004.png']);
    expect(savedFiles(previews)).toEqual(previewImages(recorder, id, FRAME_PREVIEW_IMAGE_WITH_METADATA));
    recorder.close();
  });

  it('saves type-1 previews byte-exact from a server that sends no metadata', async () => {
    const kit = await own();
    const recorder = await WsRecorder.open(kit.server);
    await addFaults(kit.server, [{ match: 'GET /api/features', action: 'status', status: 200, body: { supports_preview_metadata: false } }]);
    const previews = join(kit.dir, 'plain');
    const res = await kit.wes(['legacy', 'prompt', kit.file('plain.json', sampleWorkflow(3, 'plain')), '--ws', '--previews', previews, '--json']);
    expect(res.code, res.stderr).toBe(0);
    const id = ndjson(res.stdout)[0]!.prompt_id as string;
    await recorder.untilType('execution_success', id);
    expect(ndjson(res.stdout).filter((l) => l.type === 'PREVIEW_IMAGE').map((l) => l.node_id)).toEqual(['2', '2', '2']);
    expect(ndjson(res.stdout).filter((l) => l.type === 'TEXT').map((l) => [l.node_id, l.text])).toEqual([
      ['2', 'step 1/3'],
      ['2', 'step 2/3'],
      ['2', 'step 3/3'],
    ]);
    const sent = previewImages(recorder, id, FRAME_PREVIEW_IMAGE);
    expect(sent).toHaveLength(3);
    expect(savedFiles(previews)).toEqual(sent);
    recorder.close();
  });

  it('skips a truncated preview frame with a --verbose note and still succeeds', async () => {
    const kit = await own();
    await addFaults(kit.server, [{ match: 'GET /ws', action: 'truncate' }]);
    const previews = join(kit.dir, 'truncated');
    const res = await kit.wes(['legacy', 'prompt', kit.file('trunc.json', sampleWorkflow(3, 'trunc')), '--previews', previews, '--verbose']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/skipped a malformed WebSocket frame: .*truncated/);
    expect(readdirSync(previews)).toHaveLength(2);
  });

  it('reconnects after the socket drops mid-run, re-checks by REST, and succeeds', async () => {
    const kit = await own();
    const before = countOf(kit.server, 'GET /ws');
    await addFaults(kit.server, [{ match: 'GET /ws', action: 'drop', after_bytes: 1500 }]);
    // Once the socket is opened again, the rest is the prompt's run to its end.
    const run = kit.wes(['legacy', 'prompt', kit.file('drop.json', longWorkflow('drop', 2)), '--ws', '--download', join(kit.dir, 'dropped')]);
    const res = await hurriedFrom(kit.server, () => countOf(kit.server, 'GET /ws') - before >= 2, run);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('WebSocket connection lost');
    expect(res.stderr).toContain('WebSocket reconnected; re-checking the status');
    expect(countOf(kit.server, 'GET /ws') - before).toBeGreaterThanOrEqual(2);
    expect(readdirSync(join(kit.dir, 'dropped'))).toEqual(['drop_00001_.png']);
  });

  it('notices a finish that happened while the socket was down', async () => {
    const kit = await own();
    await addFaults(kit.server, [{ match: 'GET /ws', action: 'drop', after_bytes: 200 }, { match: 'GET /ws', action: 'delay', delay_ms: 600 }]);
    const res = await kit.wes(['legacy', 'prompt', kit.file('gap.json', sampleWorkflow(5, 'gap')), '--ws']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('WebSocket connection lost');
    expect(res.stderr).toMatch(/success/);
  });

  it('retries a 5xx handshake but not a 401 or 403 one', async () => {
    const kit = await own();
    const id = await submit(kit.server, sampleWorkflow(2, 'handshake'));
    await addFaults(kit.server, [{ match: 'GET /ws', action: 'status', status: 503 }]);
    expect((await kit.wes(['legacy', 'watch', id])).code).toBe(0);
    for (const status of [401, 403]) {
      const before = countOf(kit.server, 'GET /ws');
      await addFaults(kit.server, [{ match: 'GET /ws', action: 'status', status, body: { error: { type: 'unauthorized', message: 'token refused' } } }]);
      const refused = await kit.wes(['legacy', 'watch', id]);
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain('token refused');
      expect(countOf(kit.server, 'GET /ws') - before).toBe(1);
    }
  });

  it('never logs the token, even with --verbose', async () => {
    const kit = await own();
    const id = await submit(kit.server, sampleWorkflow(2, 'secret'));
    const res = await kit.wes(['legacy', 'watch', id, '--verbose']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('/ws?clientId=');
    expect(res.stderr).toContain('token=REDACTED');
    expect(res.stderr).not.toContain(LEGACY_KEY);
  });

  it('exits 3 on execution_error with the exception type and its hint', async () => {
    const kit = await own();
    const failing = await kit.wes(['legacy', 'prompt', kit.file('fail.json', failingWorkflow('kaput')), '--ws']);
    expect(failing.code).toBe(3);
    expect(failing.stderr).toContain('failed in node 1 (Fail): RuntimeError: kaput');
    const partner = { '1': { class_type: 'PartnerCall', inputs: { prompt: 'x' } }, '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'p' } } };
    const drained = await kit.wes(['legacy', 'prompt', kit.file('partner.json', partner), '--ws', '--partner-key', 'drained-1']);
    expect(drained.code).toBe(3);
    expect(drained.stderr).toContain('InsufficientFundsError');
    expect(drained.stderr).toContain('add credits');
    const missingKey = await kit.wes(['legacy', 'prompt', join(kit.dir, 'partner.json'), '--ws', '--json']);
    expect(missingKey.code).toBe(3);
    expect(ndjson(missingKey.stdout).pop()).toMatchObject({ status: 'non_retryable_error' });
    expect(missingKey.stderr).toContain('"exception_type":"ValidationError"');
  });

  it('exits 10 when the prompt is interrupted while watched', async () => {
    const kit = await own();
    const id = await submit(kit.server, longWorkflow('watched'));
    const sockets = countOf(kit.server, 'GET /ws');
    const watching = kit.wes(['legacy', 'watch', id, '--json']);
    await until(() => countOf(kit.server, 'GET /ws') > sockets);
    // Its first status read comes once the socket is open and the prompt is being followed.
    await until(() => [...kit.server.state.requestCounts.keys()].some((key) => key.startsWith('GET ') && key.includes(id)), 'the watch to read the prompt');
    await v1(kit.server, 'POST', '/api/interrupt', { prompt_id: id });
    const res = await watching;
    expect(res.code).toBe(10);
    const lines = ndjson(res.stdout);
    expect(lines.map((l) => l.type)).toContain('execution_interrupted');
    expect(lines.pop()).toEqual({ prompt_id: id, status: 'cancelled' });
  });

  it('ends at once for a prompt that finished before watching', async () => {
    const kit = await own();
    const id = await submit(kit.server, sampleWorkflow(1, 'done'));
    await waitForStatus(kit.server, id, ['success']);
    const res = await kit.wes(['legacy', 'watch', id, '--interval', '0.05']);
    expect(res).toMatchObject({ code: 0, stdout: 'success\n' });
  });
});
