// Many lines in flight must not grow listeners on the command's abort signal: the warning
// `MaxListenersExceededWarning ... abort listeners added to [AbortSignal]` that every batch used
// to print is a failure here, at a concurrency where every line holds a request, a wait and an
// event stream at once.
import { describe, expect, it } from 'vitest';
import { useDevServer } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst } from './jobs-env.js';
import { quickWorkflow, readResultLines, writeBatch } from './batch-env.js';

describe('jobs submit --batch at concurrency 48', () => {
  // Fewer slots than lines in flight: most lines wait in the queue with their event stream open.
  const ctx = useDevServer({ stepMs: 1, slots: 8, maxQueue: 200 });
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('prints no listener-leak warning and ends every line', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => quickWorkflow('listeners', i + 1, { steps: 8 }));
    const file = writeBatch(dir(), 'listeners.jsonl', lines);
    const res = await wes(['jobs', 'submit', '--batch', file, '--concurrency', '48', '--interval', '0.2'], { timeoutMs: 90_000 });
    expect(res.code, res.stderr.slice(-2000)).toBe(0);
    expect(res.stderr).not.toMatch(/MaxListenersExceededWarning|memory leak/i);
    const results = readResultLines(res.stdout);
    expect(results.map((r) => r.index)).toEqual(lines.map((_, i) => i + 1));
    expect(results.every((r) => r.status === 'succeeded')).toBe(true);
  });
});
