// `dev-server --surface self-hosted --engine-version 0.3.18|0.3.64` against what those releases
// answered on 2026-11-26 (test/fixtures/comfyui-selfhosted/engine-*.json, ws-*.json): what each
// release adds or changes (features, progress_state, feature_flags and type-4 frames, prompt ids of
// the client's own, targeted interrupt, history offset, refusal shapes), and what both do (lifecycle
// messages only to the submitting client, pending-only delete, the static route's empty 404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { ENGINE_VERSIONS, type EngineVersion } from '../../src/dev-server/contract.js';
import { startFast } from '../helpers/dev-server.js';
import { fixture, keysOf } from '../helpers/comfyui-fixtures.js';
import { longWorkflow, sampleWorkflow, submit, twoNodeWorkflow, v1, WsRecorder, type Received } from './legacy-kit.js';

type Token = string;

/** A stream as tokens: message types, `status(sid)`, `executing(null)`, binary frames as `frame<type>`. */
function tokens(frames: Array<{ text?: { type: string; data: any }; binary?: { type: number } }>): Token[] {
  return frames.map((f) => {
    if (f.binary) return `frame${f.binary.type}`;
    const { type, data } = f.text!;
    if (type === 'status' && data?.sid !== undefined) return 'status(sid)';
    if (type === 'executing' && data?.node === null) return 'executing(null)';
    return type;
  });
}

function recorded(frames: Received[]): Token[] {
  return tokens(frames.map((f) => (f.kind === 'binary' ? { binary: { type: f.bytes.readUInt32BE(0) } } : { text: { type: f.type, data: f.data } })));
}

/** Which token follows which, repeats collapsed: the ordering rules of a stream, whatever the workflow's length. */
function transitions(list: Token[]): string[] {
  const collapsed = list.filter((t, i) => t !== list[i - 1]);
  return [...new Set(collapsed.slice(1).map((t, i) => `${collapsed[i]} -> ${t}`))].sort();
}

function fromFixture(name: string): Token[] {
  return tokens(fixture(name).messages.filter((m: { dir: string }) => m.dir === 'received'));
}

async function idle(s: DevServerHandle): Promise<void> {
  for (;;) {
    const { body } = await v1(s, 'GET', '/api/queue');
    if (body.queue_running.length === 0 && body.queue_pending.length === 0) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function runningNow(s: DevServerHandle, id: string): Promise<void> {
  for (;;) {
    if ((await v1(s, 'GET', '/api/queue')).body.queue_running.some((e: unknown[]) => e[1] === id)) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function ended(s: DevServerHandle, id: string): Promise<any> {
  for (;;) {
    const { body } = await v1(s, 'GET', `/api/history/${id}`);
    if (body[id]) return body[id];
    await new Promise((r) => setTimeout(r, 5));
  }
}

for (const version of ENGINE_VERSIONS) {
  describe(`the engine imitation of ComfyUI ${version}`, () => {
    const answers = fixture(`engine-${version}.json`).answers;
    const newer = version === '0.3.64';
    let server: DevServerHandle;
    beforeAll(async () => {
      server = await startFast({ deployment: 'self-hosted', engineOnly: true, engineVersion: version as EngineVersion, stepMs: 3 });
    });
    afterAll(async () => {
      await server.close();
    });

    it('names its release in system_stats with the recorded keys, and answers /features and the cloud routes as recorded', async () => {
      const stats = await v1(server, 'GET', '/api/system_stats');
      expect(keysOf(stats.body.system)).toEqual(keysOf(answers.system_stats.body.system));
      expect(stats.body.system.comfyui_version).toBe(version);
      for (const name of ['features', 'jobs', 'job_status_random_uuid']) {
        const want = answers[name];
        const res = await fetch(`${server.url}${want.path}`);
        const text = await res.text();
        expect([name, res.status, res.headers.get('content-type')?.split(';')[0]]).toEqual([name, want.status, want.headers['content-type'].split(';')[0]]);
        expect(text === '' ? '' : JSON.parse(text)).toEqual(want.body);
        if (want.status === 404) expect(res.headers.get('transfer-encoding')).toBe('chunked');
      }
    });

    it('refuses in this release\'s shapes: node_errors a list (0.3.18) or a dict (0.3.64), error a string or an object', async () => {
      const unknown = await v1(server, 'POST', '/api/prompt', { prompt: { ...twoNodeWorkflow(), '2': { class_type: 'NoSuchNodeClass', inputs: { image: ['1', 0] } } } });
      expect([unknown.status, unknown.body.error.type, unknown.body.node_errors]).toEqual([400, answers.prompt_unknown_class.body.error.type, answers.prompt_unknown_class.body.node_errors]);
      const noOutputs = await v1(server, 'POST', '/api/prompt', { prompt: { '1': twoNodeWorkflow()['1'] } });
      expect([noOutputs.status, noOutputs.body]).toEqual([400, answers.prompt_no_output_node.body]);
      const noPrompt = await v1(server, 'POST', '/api/prompt', { client_id: 'x' });
      expect([noPrompt.status, noPrompt.body]).toEqual([400, answers.prompt_no_prompt_key.body]);
    });

    it(`${newer ? 'uses' : 'ignores'} a prompt_id the client sends`, async () => {
      const mine = `mine-${version}`;
      const res = await v1(server, 'POST', '/api/prompt', { prompt: twoNodeWorkflow('own'), prompt_id: mine });
      expect(res.status).toBe(200);
      expect(keysOf(res.body)).toEqual(keysOf(answers.prompt_client_supplied_prompt_id.body));
      expect(res.body.prompt_id === mine).toBe(newer);
      await ended(server, res.body.prompt_id);
    });

    it('deletes pending prompts only; an interrupt naming another prompt stops the running one on 0.3.18 only, naming it stops it on both', async () => {
      await idle(server);
      const running = await submit(server, longWorkflow('run', 3));
      const pending = await submit(server, longWorkflow('wait', 1));
      await runningNow(server, running);
      const deleted = await fetch(`${server.url}/api/queue`, { method: 'POST', body: JSON.stringify({ delete: [pending, running] }) });
      expect([deleted.status, await deleted.text(), deleted.headers.get('content-type')]).toEqual([200, '', null]);
      const queue = (await v1(server, 'GET', '/api/queue')).body;
      expect([queue.queue_running.map((e: unknown[]) => e[1]), queue.queue_pending]).toEqual([[running], []]);
      const done = await submit(server, twoNodeWorkflow('done'));
      const other = await fetch(`${server.url}/api/interrupt`, { method: 'POST', body: JSON.stringify({ prompt_id: done }) });
      expect([other.status, await other.text()]).toEqual([200, '']);
      await new Promise((r) => setTimeout(r, 60));
      const after = (await v1(server, 'GET', '/api/queue')).body.queue_running.map((e: unknown[]) => e[1]);
      if (newer) {
        expect(after).toContain(running);
        await fetch(`${server.url}/api/interrupt`, { method: 'POST', body: JSON.stringify({ prompt_id: running }) });
      }
      const entry = await ended(server, running);
      expect(entry.status.messages.map((m: unknown[]) => m[0])).toEqual(['execution_start', 'execution_cached', 'execution_interrupted']);
      await ended(server, done);
    });

    it(`reads max_items${newer ? ' and offset' : ' (not offset)'} of GET /history`, async () => {
      await idle(server);
      const all = Object.keys((await v1(server, 'GET', '/api/history')).body);
      expect(all.length).toBeGreaterThanOrEqual(3);
      expect(Object.keys((await v1(server, 'GET', '/api/history?max_items=2')).body)).toEqual(all.slice(-2));
      const offset = Object.keys((await v1(server, 'GET', '/api/history?max_items=2&offset=0')).body);
      expect(offset).toEqual(newer ? all.slice(0, 2) : all.slice(-2));
    });

    it('sends a prompt\'s lifecycle, progress and previews to the client that submitted it only, in the recorded order', async () => {
      await idle(server);
      const ours = await WsRecorder.open(server, { metadata: true });
      const other = await WsRecorder.open(server, { metadata: true });
      try {
        const id = await submit(server, sampleWorkflow(4, 'routed'), undefined, { client_id: ours.clientId });
        await ours.until(() => ours.json(id).some((m) => m.type === 'executing' && m.data.node === null));
        const negotiated = newer ? 'ws-sampler-0.3.64.json' : 'ws-sampler-0.3.18.json';
        expect(transitions(recorded(ours.frames))).toEqual(transitions(fromFixture(negotiated)));
        if (newer) expect(ours.json()[1]).toEqual({ kind: 'json', type: 'feature_flags', data: fixture(negotiated).messages[2].text.data });
        expect(other.json(id)).toEqual([]);
        expect(other.binary()).toEqual([]);
      } finally {
        ours.close();
        other.close();
      }
    });

    it('without a negotiation: previews as type 1 after the step\'s progress, as recorded', async () => {
      await idle(server);
      const ws = await WsRecorder.open(server);
      try {
        const id = await submit(server, sampleWorkflow(3, 'plain'), undefined, { client_id: ws.clientId });
        await ws.until(() => ws.json(id).some((m) => m.type === 'executing' && m.data.node === null));
        const want = newer ? 'ws-sampler-0.3.64-no-flags.json' : 'ws-sampler-0.3.18.json';
        expect(transitions(recorded(ws.frames))).toEqual(transitions(fromFixture(want)));
      } finally {
        ws.close();
      }
    });

    it('a prompt posted without client_id: no lifecycle message for anyone; its progress and type-1 previews to every client', async () => {
      await idle(server);
      const [a, b] = [await WsRecorder.open(server, { metadata: true }), await WsRecorder.open(server)];
      try {
        const id = await submit(server, sampleWorkflow(3, 'nobody'));
        await ended(server, id);
        await Promise.all([a.roundTrip(), b.roundTrip()]); // whatever the server sent before has arrived
        for (const ws of [a, b]) {
          const types = new Set(ws.json(id).map((m) => m.type));
          expect([...types].sort()).toEqual(newer ? ['progress', 'progress_state'] : ['progress']);
          expect(ws.binary().every((frame) => frame.readUInt32BE(0) === 1)).toBe(true);
          expect(ws.binary().length).toBeGreaterThan(0);
          const nodes = new Set(ws.json(id).filter((m) => m.type === 'progress').map((m) => m.data.node));
          expect([...nodes]).toEqual([newer ? '2' : null]);
        }
        if (newer) {
          const recordedA = fixture('ws-no-client-id-0.3.64.json').sockets[0].messages.filter((m: { dir: string }) => m.dir === 'received');
          expect(new Set(tokens(recordedA))).toEqual(new Set(['status(sid)', 'feature_flags', 'status', 'progress_state', 'progress', 'frame1']));
        }
      } finally {
        a.close();
        b.close();
      }
    });
  });
}
