// Each credential goes only to the origin it was configured for. A profile names a job API server
// (base URL, its API key), a router credential and an engine on an origin of its own (engine URL):
// the engine's origin, here a listener that records what arrives and passes it to a real engine
// (the dev-server's), gets none of them, on every `legacy` verb, a batch, `doctor`, `api` and the
// completion look-ups; with an engine key configured, it gets that one and only that one.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { runWes, type RunOptions } from '../helpers/cli.js';
import { startFast } from '../helpers/dev-server.js';
import { carried, startRecordingForwarder, type RecordingForwarder } from '../helpers/recording-forwarder.js';
import { encodePng } from '../../src/dev-server/engine/png.js';
import { longWorkflow, sampleWorkflow } from '../dev-server/legacy-kit.js';
import { useTempDir, writeTemp } from '../cli/jobs-env.js';
import { until } from '../helpers/until.js';

const JOB_API_KEY = 'job-api-key-0123456789abcdef';
const ROUTER_TOKEN = 'router-token-0123456789abcdef';
const ENGINE_KEY = 'engine-key-0123456789abcdef';

let server: DevServerHandle;
let engine: RecordingForwarder;
beforeAll(async () => {
  // The reference layout: the job API on a port of its own, the engine (no credential of its own) on the main one.
  server = await startFast({ deployment: 'self-hosted', jobsPort: 0, stepMs: 2 });
  engine = await startRecordingForwarder(server.url);
});
afterAll(async () => {
  await engine?.close();
  await server?.close();
});
const dir = useTempDir();

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { WES_BASE_URL: server.jobsUrl!, WES_API_KEY: JOB_API_KEY, WES_ROUTER_TOKEN: ROUTER_TOKEN, WES_ENGINE_URL: engine.url, ...extra };
}

function wes(args: string[], opts: RunOptions = {}) {
  return runWes(args, { ...opts, env: { ...env(), ...opts.env } });
}

/** What reached the engine's origin while `run` ran. */
async function arrivedDuring(run: () => Promise<unknown>): Promise<string[]> {
  const from = engine.arrived.length;
  await run();
  return engine.arrived.slice(from).map(carried);
}

function expectNoJobApiCredential(arrived: string[]): void {
  for (const request of arrived) {
    expect(request).not.toContain(JOB_API_KEY);
    expect(request).not.toContain(ROUTER_TOKEN);
  }
}

describe('the engine URL on an origin of its own gets no credential of the job API', () => {
  it('every legacy verb: prompt (--wait, --ws --download), status, watch, view, upload, object-info, queue, queue delete, interrupt, list', async () => {
    const out = join(dir(), 'out');
    const picture = join(dir(), 'cat.png');
    writeFileSync(picture, encodePng({ width: 2, height: 2, data: new Uint8Array(12) }));
    const arrived = await arrivedDuring(async () => {
      const waited = await wes(['legacy', 'prompt', writeTemp(dir(), sampleWorkflow(2)), '--wait']);
      expect(waited.code, waited.stderr).toBe(0);
      const id = waited.stdout.trim();
      const downloaded = await wes(['legacy', 'prompt', writeTemp(dir(), sampleWorkflow(2, 'keys')), '--ws', '--download', out]);
      expect(downloaded.code, downloaded.stderr).toBe(0);
      for (const args of [
        ['legacy', 'status', id, '--wait'],
        ['legacy', 'watch', id],
        ['legacy', 'view', readdirSync(out)[0]!, '-o', join(dir(), 'viewed.png')],
        ['legacy', 'upload', picture],
        ['legacy', 'object-info', 'EmptyImage'],
        ['legacy', 'queue'],
        ['legacy', 'list'],
      ]) {
        const res = await wes(args);
        expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
      }
      const long = await wes(['legacy', 'prompt', writeTemp(dir(), longWorkflow('keys-long', 2))]);
      const pending = await wes(['legacy', 'prompt', writeTemp(dir(), longWorkflow('keys-pending', 1))]);
      const deleted = await wes(['legacy', 'queue', 'delete', pending.stdout.trim()]);
      expect(deleted.code, deleted.stderr).toBe(0);
      await until(async () => (await wes(['legacy', 'queue'])).stdout.includes(long.stdout.trim()), 'the long prompt to run');
      const interrupted = await wes(['legacy', 'interrupt']);
      expect(interrupted.code, interrupted.stderr).toBe(0);
    });
    expect(arrived.some((r) => r.startsWith('/ws?'))).toBe(true); // the WebSocket's handshake was seen too
    expect(arrived.length).toBeGreaterThan(15);
    expectNoJobApiCredential(arrived);
    for (const request of arrived) expect(request).not.toMatch(/x-api-key|authorization|token=/i);
  }, 120_000);

  it('doctor, api (its /api/... paths go to the engine), completion look-ups and a batch', async () => {
    const arrived = await arrivedDuring(async () => {
      const doctor = await wes(['doctor', '--json']);
      expect(doctor.code, doctor.stdout).toBe(0);
      const api = await wes(['api', 'GET', '/api/queue']);
      expect(api.code, api.stderr).toBe(0);
      expect(JSON.parse(api.stdout)).toHaveProperty('queue_running');
      const absolute = await wes(['api', 'GET', `${engine.url}/api/system_stats`]);
      expect(absolute.code, absolute.stderr).toBe(0);
      for (const kind of ['models-refresh', 'models', 'jobs', 'profiles']) await wes(['__complete', kind]);
      const lines = writeTemp(dir(), [sampleWorkflow(1, 'b1'), sampleWorkflow(1, 'b2')].map((w) => JSON.stringify(w)).join('\n'), 'jsonl');
      const batch = await wes(['jobs', 'submit', '--batch', lines, '--interval', '0.05']);
      expect(batch.code, batch.stderr).toBe(0);
      const onEngine = await wes(['jobs', 'submit', '--batch', lines, '--via', `${engine.url},2`, '--interval', '0.05']);
      expect(onEngine.code, onEngine.stderr).toBe(0);
    });
    expect(arrived.some((r) => r.startsWith('/api/queue'))).toBe(true);
    expect(arrived.some((r) => r.startsWith('/api/prompt'))).toBe(true); // the --via batch's lines ran on the engine
    expectNoJobApiCredential(arrived);
  }, 120_000);
});

describe('an engine key goes to the engine, and only there', () => {
  it('legacy verbs and the WebSocket carry the engine key; the job API never sees it', async () => {
    const arrived = await arrivedDuring(async () => {
      const res = await wes(['legacy', 'prompt', writeTemp(dir(), sampleWorkflow(2)), '--ws'], { env: { WES_ENGINE_KEY: ENGINE_KEY } });
      expect(res.code, res.stderr).toBe(0);
      const api = await wes(['api', 'GET', '/api/queue'], { env: { WES_ENGINE_KEY: ENGINE_KEY } });
      expect(api.code, api.stderr).toBe(0);
    });
    const socket = arrived.find((r) => r.startsWith('/ws?'))!;
    expect(socket).toContain(`token=${ENGINE_KEY}`);
    for (const request of arrived.filter((r) => !r.startsWith('/ws?'))) expect(request).toContain(`"x-api-key":"${ENGINE_KEY}"`);
    expectNoJobApiCredential(arrived);
  });
});

describe('doctor and auth status say which origin each credential goes to', () => {
  it('the job API key to the base URL, the router token to the router, none to the engine (and why)', async () => {
    const doctor = await wes(['doctor', '--json']);
    const checks = JSON.parse(doctor.stdout) as Array<{ check: string; family: string | null; detail: string }>;
    const credential = (family: string) => checks.find((c) => c.check === 'credential' && c.family === family)!.detail;
    expect(credential('jobs')).toContain(`from WES_API_KEY, sent only to ${server.jobsUrl}`);
    expect(credential('legacy')).toContain(`no credential sent to ${engine.url} (the API key goes only to ${server.jobsUrl}`);

    const status = await wes(['auth', 'status', '--offline', '--json']);
    expect(status.code, status.stderr).toBe(0);
    const routes = JSON.parse(status.stdout).credentials as Array<Record<string, string | null>>;
    expect(routes).toEqual([
      expect.objectContaining({ family: 'jobs', origin: server.jobsUrl, credential: 'api_key', scheme: 'Bearer', source: 'WES_API_KEY' }),
      expect.objectContaining({ family: 'models', origin: server.jobsUrl, credential: 'router_token', source: 'WES_ROUTER_TOKEN' }),
      expect.objectContaining({ family: 'legacy', origin: engine.url, credential: null, withheld: expect.stringContaining(`goes only to ${server.jobsUrl}`) }),
    ]);
    const keyed = await wes(['auth', 'status', '--offline'], { env: { WES_ENGINE_KEY: ENGINE_KEY } });
    expect(keyed.stdout).toMatch(new RegExp(`legacy\\s+${engine.url}\\s+engine_key …cdef \\(\\d+ chars\\) \\(WES_ENGINE_KEY\\)`));
  });
});
