// `jobs submit --batch --via a:N --via b:N`: two dev-servers as two endpoints (two profiles).
// One is stopped mid-batch: every line still ends exactly once, its job on one server only, and
// the other server takes the remaining lines. Then the crash loop of batch-crash.test.ts over two
// endpoints: killed with SIGKILL 10 times and resumed, every line succeeds with one job in all.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { seededRandom } from '../../src/dev-server/engine/prng.js';
import { startFast } from '../helpers/dev-server.js';
import { runWes } from '../helpers/cli.js';
import { useTempDir } from './jobs-env.js';
import { closeWhenBusy, engineJobs, quickWorkflow, randomKill, resultsFile, whereEachLineRan, writeBatch } from './batch-env.js';

/** A config folder with one profile per server: `a`, `b`, ... */
function profilesFor(servers: DevServerHandle[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'wes-via-'));
  const profiles = Object.fromEntries(servers.map((s, i) => [String.fromCharCode(97 + i), { base_url: s.url, api_key: s.apiKey }]));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('jobs submit --batch over two endpoints', () => {
  const dir = useTempDir();
  const started: DevServerHandle[] = [];
  afterAll(async () => {
    await Promise.all(started.map((s) => s.close()));
  });
  async function servers(): Promise<[DevServerHandle, DevServerHandle]> {
    const pair = [await startFast({ stepMs: 2, slots: 3, jobList: true }), await startFast({ stepMs: 2, slots: 3, jobList: true })] as [DevServerHandle, DevServerHandle];
    started.push(...pair);
    return pair;
  }

  it('one server stopped mid-batch: every line ends once, on one server; the other takes the rest', async () => {
    const [a, b] = await servers();
    const configDir = profilesFor([a, b]);
    const lines = Array.from({ length: 60 }, (_, i) => quickWorkflow('split', i + 1, { steps: 10 }));
    const file = writeBatch(dir(), 'split.jsonl', lines);
    const results = join(dir(), 'split-results.jsonl');
    const stop = closeWhenBusy(a, 6);
    const res = await runWes(['jobs', 'submit', '--batch', file, '--via', 'a:3', '--via', 'b:3', '--interval', '0.05', '--retries', '1', '--results', results], { configDir, timeoutMs: 90_000, onSpawn: stop.onSpawn });
    expect(stop.stoppedAt()).toBeGreaterThanOrEqual(6);
    const all = resultsFile(results);
    expect(all.map((r) => r.index)).toEqual(lines.map((_, i) => i + 1));
    // No line has a job on both servers; a line's result names the server its job is on.
    const where = whereEachLineRan([a, b], 'split', 60);
    for (const [i, servers] of where.entries()) {
      expect(servers.length, `line ${i + 1}`).toBeLessThanOrEqual(1);
      if (all[i]!.job_id !== null) expect(servers, `line ${i + 1}`).toEqual([all[i]!.endpoint]);
    }
    // Lines sent to the stopped server after it stopped found the connection refused and moved to b, until it was set aside.
    // A line that did not succeed was caught on the stopped server: it stays there (for --resume), never resent to b.
    for (const r of all.filter((r) => r.status !== 'succeeded')) expect(r.endpoint, JSON.stringify(r)).toBe(a.url);
    expect(all.filter((r) => r.status === 'succeeded' && r.endpoint === b.url).length).toBeGreaterThan(40);
    expect(all.some((r) => r.status === 'not_submitted')).toBe(false);
    expect(res.stderr).toMatch(/a set aside after repeated failures/);
    expect(res.stderr).toMatch(/^ {2}b: \d+ submitted, \d+ succeeded, 0 failed, [\d.]+ jobs\/s/m);
    expect(res.code).toBe(all.every((r) => r.status === 'succeeded') ? 0 : 1);
  });

  it('killed with SIGKILL 10 times over two endpoints and resumed: every line succeeded, one job each', async () => {
    const [a, b] = await servers();
    const configDir = profilesFor([a, b]);
    const seed = Number(process.env.WES_CRASH_SEED ?? Date.now() % 100_000);
    const random = seededRandom(seed);
    const lines = Array.from({ length: 30 }, (_, i) => quickWorkflow('twocrash', i + 1, { steps: 15 }));
    const file = writeBatch(dir(), 'twocrash.jsonl', lines);
    const results = join(dir(), 'twocrash-results.jsonl');
    const args = ['jobs', 'submit', '--batch', file, '--via', 'a:2', '--via', 'b:2', '--interval', '0.05', '--results', results];
    const kills: string[] = [];
    for (let round = 0; round < 10; round++) {
      const kill = randomKill(random, [a, b]);
      kills.push(kill.label);
      const resume = existsSync(results) || existsSync(`${results}.journal`) ? ['--resume', results] : [];
      const res = await runWes([...args, ...resume], { configDir, onSpawn: kill.onSpawn });
      if (res.signal !== 'SIGKILL') expect(res.code, `seed ${seed}, kills ${kills.join(',')}: ${res.stderr}`).toBe(0);
    }
    const last = await runWes([...args, '--resume', results], { configDir });
    expect(last.code, `seed ${seed}, kills ${kills.join(',')}: ${last.stderr}`).toBe(0);
    const all = resultsFile(results);
    expect(all.every((r) => r.status === 'succeeded' && r.error === null), `seed ${seed}`).toBe(true);
    const where = whereEachLineRan([a, b], 'twocrash', 30);
    expect(where.map((servers) => servers.length), `seed ${seed}, kills ${kills.join(',')}`).toEqual(lines.map(() => 1));
    expect(where.map((servers) => servers[0])).toEqual(all.map((r) => r.endpoint));
    expect(engineJobs(a, 'twocrash').length + engineJobs(b, 'twocrash').length).toBe(30);
    expect(engineJobs(a, 'twocrash').length).toBeGreaterThan(0);
    expect(engineJobs(b, 'twocrash').length).toBeGreaterThan(0);
  }, 90_000);
});
