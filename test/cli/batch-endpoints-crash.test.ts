// The crash loop of batch-crash.test.ts over two endpoints (`--via a:2 --via b:2`, two
// dev-servers, two profiles): killed with SIGKILL 10 times and resumed, every line succeeds with
// one job in all, on the server its result names. A file of its own, beside batch-endpoints.test.ts,
// so that workers run the two side by side.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/dev-server/engine/prng.js';
import { runWes } from '../helpers/cli.js';
import { useTempDir } from './jobs-env.js';
import { engineJobs, profilesFor, quickWorkflow, randomKill, resultsFile, useServerPairs, whereEachLineRan, writeBatch } from './batch-env.js';

describe('jobs submit --batch over two endpoints, killed and resumed', () => {
  const dir = useTempDir();
  const servers = useServerPairs();

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
