// `wes jobs submit --batch` at scale: 200 jobs through a small queue and injected faults (every
// line exactly one result, in input order, and exactly 200 jobs in the engine). A file of its own
// (it was the first test of batch.test.ts): about a minute of waiting on the queue, while another
// worker runs the rest of the batch tests.
import { describe, expect, it } from 'vitest';
import { addFaults, useDevServer } from '../helpers/dev-server.js';
import { seen, useTempDir, wesAgainst } from './jobs-env.js';
import { engineJobs, quickWorkflow, readResultLines, writeBatch } from './batch-env.js';

describe('jobs submit --batch at scale', () => {
  // maxQueue 2 with 2 slots: at concurrency 12 the queue is full again and again (429 queue_full),
  // even once pacing has halved the lines in flight after the scripted 429s.
  // The server keeps a job list, where a submit with no usable answer is looked for by its key.
  // A queue_full asks for a 1 s wait (2 s by default): lines refused wait it out, so it sets the pace.
  const ctx = useDevServer({ faults: true, stepMs: 4, slots: 2, maxQueue: 2, queueFullRetryAfter: 1, jobList: true });
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('200 jobs through a full queue, 429/503 storms and lost answers: one result per line, in order, 200 jobs', async () => {
    // 40 ms jobs: the lines in flight outlast the 2 slots and 2 queue places, so the queue
    // fills, however slowly a loaded machine sends the lines. 10 steps of 4 ms: each step is an
    // event on the job's stream, and 40 steps of 1 ms cost the file a fifth more CPU.
    const lines = Array.from({ length: 200 }, (_, i) => quickWorkflow('scale', i + 1, { steps: 10 }));
    const file = writeBatch(dir(), 'scale.jsonl', lines);
    await addFaults(ctx.server, [
      { match: 'POST /api/v2/jobs', action: 'status', status: 503, count: 6, retry_after: 0, body: { error: { code: 'service_unavailable', message: 'busy' } } },
      { match: 'POST /api/v2/jobs', action: 'drop', after_bytes: 30, count: 6 },
      { match: 'POST /api/v2/jobs', action: 'status', status: 429, count: 6, retry_after: 0, body: { error: { code: 'rate_limited', message: 'slow down' } } },
      { match: 'GET /api/v2/jobs/*', action: 'status', status: 503, count: 10, retry_after: 0 },
    ]);
    const posts = seen(ctx.server, 'POST /api/v2/jobs');
    const res = await wes(['jobs', 'submit', '--batch', file, '--concurrency', '12', '--interval', '0.05', '--verbose'], { timeoutMs: 150_000 });
    expect(res.code, res.stderr.slice(-2000)).toBe(0);
    const results = readResultLines(res.stdout);
    expect(results.map((r) => r.index)).toEqual(lines.map((_, i) => i + 1));
    expect(results.every((r) => r.status === 'succeeded' && r.error === null && r.outputs.length === 1)).toBe(true);
    expect(results.map((r) => r.outputs[0]!.name)).toEqual(lines.map((_, i) => `scale-${i + 1}_00001_.png`));
    const jobs = engineJobs(ctx.server, 'scale');
    expect(jobs).toHaveLength(200);
    expect(new Set(results.map((r) => r.job_id))).toEqual(new Set(jobs));
    expect(new Set(results.map((r) => r.idempotency_key)).size).toBe(200);
    // Each scripted 503 and each cut answer left its line in doubt once: a cut answer to a submit
    // that made a job was found by its key, a 503 (or a cut queue_full) made none, which the list
    // proves, so that line went again under a new key; none was sent again under a key already used.
    const found = results.filter((r) => r.found_by_key).length;
    const resent = results.filter((r) => r.resubmitted?.because === 'no_job_made').length;
    expect(resent).toBeGreaterThanOrEqual(6);
    expect(found + resent).toBeLessThanOrEqual(12);
    expect(res.stderr).not.toContain('idempotency_key_reuse');
    // Every submit attempt is accounted for: 200 that made a job, 18 faults, and the queue_full refusals.
    expect(seen(ctx.server, 'POST /api/v2/jobs') - posts).toBeGreaterThan(218);
    expect(res.stderr).toContain('batch of 200: 200 succeeded');
    // The queue really was full, and wes waited as told (Retry-After: 1) instead of giving up.
    expect(res.stderr).toMatch(/queue_full \(the queue is full.*\); submitting again in 1000 ms/);
  }, 160_000);
});
