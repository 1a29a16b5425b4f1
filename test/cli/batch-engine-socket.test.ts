// `jobs submit --batch` against a self-hosted engine learns each line's end from the engine's
// WebSocket: the prompts name the batch's socket as their client, and the engine sends that client
// their lifecycle messages (and only it). A 30 s poll interval never fires while the socket carries
// every line; a socket lost mid-batch leaves the lines to the queue and history; both engine
// releases work (0.3.64 keeps wes's own prompt ids, 0.3.18 makes its own). A server that serves
// the job API v2 beside its engine is used through v2.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { ENGINE_VERSIONS } from '../../src/dev-server/contract.js';
import { addFaults, startFast } from '../helpers/dev-server.js';
import { runWes } from '../helpers/cli.js';
import { useTempDir } from './jobs-env.js';
import { engineJobs, quickWorkflow, resultsFile, writeBatch } from './batch-env.js';

describe('jobs submit --batch on a self-hosted engine, by its WebSocket', () => {
  const dir = useTempDir();
  /** The servers of this file's tests (one-millisecond steps), all closed at its end. */
  const servers: Array<Promise<DevServerHandle>> = [];
  const server = (options: Parameters<typeof startFast>[0]) => servers[servers.push(startFast({ stepMs: 1, ...options })) - 1]!;
  afterAll(async () => void (await Promise.all(servers.map(async (s) => (await s).close()))));

  for (const version of ENGINE_VERSIONS) {
    it(`ComfyUI ${version}: every line ends by the engine's messages to the batch's socket, none by the 30 s poll`, async () => {
      const engine = await server({ deployment: 'self-hosted', engineOnly: true, engineVersion: version, faults: true });
      const lines = Array.from({ length: 40 }, (_, i) => quickWorkflow(`ws-${version}`, i + 1));
      const file = writeBatch(dir(), `ws-${version}.jsonl`, lines);
      const results = join(dir(), `ws-${version}-results.jsonl`);
      const res = await runWes(['--base-url', engine.url, 'jobs', 'submit', '--batch', file, '--concurrency', '4', '--interval', '30', '--results', results], { timeoutMs: 25_000 });
      expect(res.code, res.stderr).toBe(0);
      const all = resultsFile(results);
      expect(all.every((r) => r.status === 'succeeded' && r.outputs.length === 1)).toBe(true);
      const prompts = engineJobs(engine, `ws-${version}`).map((id) => engine.state.engine.get(id)!);
      expect(prompts).toHaveLength(40);
      expect(new Set(prompts.map((p) => p.extraData.client_id)).size).toBe(1); // the batch's one socket
      expect(engine.state.requestCounts.get('GET /ws')).toBe(1);
      // 0.3.64 kept wes's own ids; 0.3.18 made its own: both are what the results name.
      expect(new Set(all.map((r) => r.job_id))).toEqual(new Set(prompts.map((p) => p.id)));
    });
  }

  it('the binary exits once the last line ends (the socket closed behind it), also after messages that come after an ending', async () => {
    const engine = await server({ deployment: 'self-hosted', engineOnly: true, engineVersion: '0.3.18' });
    const file = writeBatch(dir(), 'exit.jsonl', Array.from({ length: 20 }, (_, i) => quickWorkflow('exit', i + 1)));
    const res = await runWes(['--base-url', engine.url, 'jobs', 'submit', '--batch', file, '--concurrency', '3'], { spawn: true, timeoutMs: 20_000 });
    expect([res.code, res.signal], res.stderr).toEqual([0, null]);
    expect(res.stdout.trim().split('\n')).toHaveLength(20);
  });

  it('a socket lost mid-batch (and refused back) leaves its lines to the queue and history: all end, none twice', async () => {
    const engine = await server({ deployment: 'self-hosted', engineOnly: true, engineVersion: '0.3.64', faults: true, stepMs: 3 });
    await addFaults(engine, [
      { match: 'GET /ws', action: 'drop', after_bytes: 3000 },
      { match: 'GET /ws', action: 'status', status: 503, count: 10 },
    ]);
    const lines = Array.from({ length: 30 }, (_, i) => quickWorkflow('drop', i + 1, { steps: 2 }));
    const file = writeBatch(dir(), 'drop.jsonl', lines);
    const results = join(dir(), 'drop-results.jsonl');
    const res = await runWes(['--base-url', engine.url, 'jobs', 'submit', '--batch', file, '--concurrency', '3', '--interval', '0.05', '--results', results], { timeoutMs: 40_000 });
    expect(res.code, res.stderr).toBe(0);
    expect(resultsFile(results).every((r) => r.status === 'succeeded')).toBe(true);
    expect(engineJobs(engine, 'drop')).toHaveLength(30);
    expect(engine.state.requestCounts.get('GET /ws')).toBeGreaterThan(1);
  });

  it('a server that serves the job API v2 beside its engine\'s v1 is used through v2', async () => {
    const both = await server({ deployment: 'self-hosted' });
    const file = writeBatch(dir(), 'v2.jsonl', [quickWorkflow('v2-first', 1), quickWorkflow('v2-first', 2)]);
    const res = await runWes(['--base-url', both.url, 'jobs', 'submit', '--batch', file, '--interval', '0.05']);
    expect(res.code, res.stderr).toBe(0);
    const jobs = engineJobs(both, 'v2-first').map((id) => both.state.engine.get(id)!);
    expect(jobs.map((j) => j.via)).toEqual(['v2', 'v2']);
    expect(both.state.requestCounts.get('POST /api/prompt') ?? 0).toBe(0);
  });
});
