// `jobs submit --batch --via a:N --via b:N`: two dev-servers as two endpoints (two profiles).
// One is stopped mid-batch: every line still ends exactly once, its job on one server only, and
// the other server takes the remaining lines. The crash loop over two endpoints is
// batch-endpoints-crash.test.ts.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { useTempDir } from './jobs-env.js';
import { closeWhenBusy, profilesFor, quickWorkflow, resultsFile, useServerPairs, whereEachLineRan, writeBatch } from './batch-env.js';

describe('jobs submit --batch over two endpoints', () => {
  const dir = useTempDir();
  const servers = useServerPairs();

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
});
