// `jobs submit --batch` over a job API server and a self-hosted ComfyUI engine together (the
// dev-server's engine-only self-hosted deployment, found by detection): the engine's lines go in
// as v1 prompts carrying their key in extra_data, are followed through its queue and history, and
// are recorded with the engine's prompt id. Every line ends once, on one server; an engine stopped
// mid-batch keeps the lines it has (never resent elsewhere) and is set aside; and a batch killed
// and resumed finds an engine's prompts by their key instead of sending them again.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { startFast } from '../helpers/dev-server.js';
import { runWes } from '../helpers/cli.js';
import { useTempDir } from './jobs-env.js';
import { closeWhenBusy, engineJobs, quickWorkflow, resultsFile, whereEachLineRan, writeBatch } from './batch-env.js';

/** A config folder with profile `api` (the job API server, its key) and `gpu` (the engine, no key, engine detected). */
function profiles(api: DevServerHandle, engine: DevServerHandle): string {
  const dir = mkdtempSync(join(tmpdir(), 'wes-engines-'));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { api: { base_url: api.url, api_key: api.apiKey }, gpu: { base_url: engine.url } } }), { mode: 0o600 });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Each test starts servers of its own and waits on what they hold, not on a clock: side by side.
describe.concurrent('jobs submit --batch over a job API server and a self-hosted engine', () => {
  const dir = useTempDir();
  const started: DevServerHandle[] = [];
  afterAll(async () => {
    await Promise.all(started.map((s) => s.close()));
  });
  async function pair(stepMs = 2): Promise<[DevServerHandle, DevServerHandle]> {
    // The job API server lists its jobs, so a line killed between its submit and the answer is found, not left in doubt.
    const api = await startFast({ stepMs, slots: 3, jobList: true });
    const engine = await startFast({ deployment: 'self-hosted', engineOnly: true, stepMs, slots: 1 });
    started.push(api, engine);
    return [api, engine];
  }

  it('every line ends once, on one server; the engine\'s as v1 prompts with their outputs', async () => {
    const [api, engine] = await pair();
    const configDir = profiles(api, engine);
    const lines = Array.from({ length: 30 }, (_, i) => quickWorkflow('mixed', i + 1, { steps: 3 }));
    const file = writeBatch(dir(), 'mixed.jsonl', lines);
    const results = join(dir(), 'mixed-results.jsonl');
    const res = await runWes(['jobs', 'submit', '--batch', file, '--via', 'api:3', '--via', 'gpu:3', '--interval', '0.05', '--results', results], { configDir, timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const all = resultsFile(results);
    expect(all.map((r) => r.index)).toEqual(lines.map((_, i) => i + 1));
    expect(all.every((r) => r.status === 'succeeded' && r.error === null)).toBe(true);
    const onEngine = all.filter((r) => r.endpoint === engine.url);
    expect(onEngine.length).toBeGreaterThan(0);
    expect(all.filter((r) => r.endpoint === api.url).length).toBeGreaterThan(0);
    // Each line made one job or prompt, on the server its result names.
    expect(engineJobs(api, 'mixed').length + engineJobs(engine, 'mixed').length).toBe(30);
    expect(new Set(engineJobs(engine, 'mixed'))).toEqual(new Set(onEngine.map((r) => r.job_id)));
    for (const r of onEngine) {
      const prompt = engine.state.engine.get(r.job_id!)!;
      expect(prompt.extraData.wes_batch_key).toBe(r.idempotency_key);
      expect(r.outputs.map((o) => o.name)).toEqual([expect.stringMatching(/^mixed-\d+.*\.png$/)]);
    }
    expect(res.stderr).toMatch(/^ {2}gpu: \d+ submitted, \d+ succeeded, 0 failed/m);
  });

  it('an engine stopped mid-batch keeps its lines (never resent) and is set aside; the job API takes the rest', async () => {
    // 80 ms jobs: the job API's share lasts about a second, long enough for the stopped engine's
    // failed reads (one per 50 ms poll) to set it aside before the batch ends.
    const [api, engine] = await pair(10);
    const configDir = profiles(api, engine);
    const lines = Array.from({ length: 40 }, (_, i) => quickWorkflow('halt', i + 1, { steps: 8 }));
    const file = writeBatch(dir(), 'halt.jsonl', lines);
    const results = join(dir(), 'halt-results.jsonl');
    const stop = closeWhenBusy(engine, 5);
    const res = await runWes(['jobs', 'submit', '--batch', file, '--via', 'api:3', '--via', 'gpu:3', '--interval', '0.05', '--retries', '1', '--results', results], { configDir, timeoutMs: 90_000, onSpawn: stop.onSpawn });
    expect(stop.stoppedAt()).toBeGreaterThanOrEqual(5);
    const all = resultsFile(results);
    expect(all.map((r) => r.index)).toEqual(lines.map((_, i) => i + 1));
    for (const [i, jobs] of whereEachLineRan([api, engine], 'halt', 40).entries()) {
      const where = [...new Set(jobs)];
      expect(where.length, `line ${i + 1}`).toBeLessThanOrEqual(1);
      if (all[i]!.job_id !== null) expect(where, `line ${i + 1}`).toEqual([all[i]!.endpoint]);
    }
    // What did not succeed was caught on the engine and stays there, for --resume.
    for (const r of all.filter((r) => r.status !== 'succeeded')) expect(r.endpoint, JSON.stringify(r)).toBe(engine.url);
    expect(all.filter((r) => r.status === 'succeeded' && r.endpoint === api.url).length).toBeGreaterThan(20);
    expect(res.stderr).toMatch(/gpu set aside after repeated failures/);
  });

  it('a batch whose only engine stopped exits once its lines have ended, not after the socket\'s reconnects give up', async () => {
    // 1 s prompts, one at a time: three lines are in flight when the engine stops, and nothing else keeps the run going.
    const engine = await startFast({ deployment: 'self-hosted', engineOnly: true, stepMs: 10, slots: 1 });
    started.push(engine);
    const lines = Array.from({ length: 6 }, (_, i) => quickWorkflow('gone', i + 1, { steps: 100 }));
    const file = writeBatch(dir(), 'gone.jsonl', lines);
    const stop = closeWhenBusy(engine, 3);
    let exitedAt = 0;
    const res = await runWes(['--base-url', engine.url, 'jobs', 'submit', '--batch', file, '--concurrency', '3', '--interval', '0.05', '--retries', '1'], {
      timeoutMs: 30_000,
      onSpawn: (child) => {
        stop.onSpawn();
        child.on('exit', () => (exitedAt = Date.now()));
      },
    });
    expect(stop.stoppedAt(), res.stderr).toBeGreaterThanOrEqual(3);
    expect(res.stderr).toMatch(/could not connect/);
    // The socket's five reconnects to a stopped engine wait 3.9 s in all at the least (their backoff's
    // floor): a run that waited them out cannot exit sooner. Not a speed bound: the fixed run exits
    // as its lines end, the bound is what the leaked socket's own schedule makes impossible.
    expect(exitedAt - stop.closedAt(), res.stderr).toBeLessThan(3900);
  });

  it('killed and resumed: an engine\'s prompts are found by their key, never submitted twice', async () => {
    // 200 ms prompts, one at a time on the engine: a run takes a few seconds, so the kills land mid-run.
    const [api, engine] = await pair(5);
    const configDir = profiles(api, engine);
    const lines = Array.from({ length: 16 }, (_, i) => quickWorkflow('again', i + 1, { steps: 40 }));
    const file = writeBatch(dir(), 'again.jsonl', lines);
    const results = join(dir(), 'again-results.jsonl');
    const args = ['jobs', 'submit', '--batch', file, '--via', 'api:2', '--via', 'gpu:2', '--interval', '0.05', '--results', results];
    let killed = 0;
    for (const delay of [500, 800, 1100]) {
      const resume = existsSync(results) || existsSync(`${results}.journal`) ? ['--resume', results] : [];
      const res = await runWes([...args, ...resume], { configDir, onSpawn: (child) => void setTimeout(() => child.kill('SIGKILL'), delay) });
      if (res.signal === 'SIGKILL') killed++;
    }
    expect(killed).toBeGreaterThanOrEqual(2);
    const last = await runWes([...args, '--resume', results], { configDir, timeoutMs: 60_000 });
    expect(last.code, last.stderr).toBe(0);
    const all = resultsFile(results);
    expect(all.every((r) => r.status === 'succeeded')).toBe(true);
    expect(engineJobs(api, 'again').length + engineJobs(engine, 'again').length).toBe(16);
    expect(engineJobs(engine, 'again').length).toBeGreaterThan(0);
    expect(new Set(engineJobs(engine, 'again'))).toEqual(new Set(all.filter((r) => r.endpoint === engine.url).map((r) => r.job_id)));
  });
});

describe('jobs submit --batch --download on a self-hosted engine', () => {
  const dir = useTempDir();
  let engine: DevServerHandle;
  afterAll(async () => {
    await engine?.close();
  });

  it('saves each prompt\'s output files through /view into DIR/<line>-<prompt id>/', async () => {
    engine = await startFast({ deployment: 'self-hosted', engineOnly: true, stepMs: 1, slots: 1 });
    const file = writeBatch(dir(), 'saved.jsonl', [quickWorkflow('saved', 1), quickWorkflow('saved', 2)]);
    const out = join(dir(), 'out');
    const res = await runWes(['--base-url', engine.url, 'jobs', 'submit', '--batch', file, '--interval', '0.05', '--download', out]);
    expect(res.code, res.stderr).toBe(0);
    const all = res.stdout.trim().split('\n').map((l) => JSON.parse(l) as { index: number; job_id: string; endpoint: string; outputs: Array<{ name: string; path?: string; hash?: string | null; verified?: boolean }> });
    expect(all.map((r) => r.endpoint)).toEqual([engine.url, engine.url]);
    for (const r of all) {
      expect(r.outputs).toHaveLength(1);
      const saved = r.outputs[0]!;
      expect(saved.path).toBe(join(out, `${r.index}-${r.job_id}`, saved.name));
      expect(existsSync(saved.path!)).toBe(true);
      expect(saved.hash).toMatch(/^blake3:[0-9a-f]{64}$/);
    }
  });
});
