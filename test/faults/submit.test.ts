// Faults on `jobs submit` (a POST), through the binary: a connection reset before or during the
// answer, a truncated answer, 429 storms with and without Retry-After, 5xx bursts. Every retry
// must carry the same Idempotency-Key, so the engine holds exactly one job however many attempts
// reached it; attempts stay within --retries.
import { describe, expect, it } from 'vitest';
import { addFaults, imageWorkflow } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst, writeTemp } from '../cli/jobs-env.js';
import { countsFrom, idempotencyKeysSent, jobsTagged, useFaultServer } from './kit.js';

const SUBMIT = 'POST /api/v2/jobs';
const v2Error = (code: string, message = 'scripted') => ({ error: { code, message } });

describe('faults on jobs submit', () => {
  const fx = useFaultServer();
  const wes = wesAgainst(() => fx.server);
  const dir = useTempDir();

  /** Submits a workflow tagged `tag` with --verbose; returns the run and what the server saw. */
  async function submit(tag: string, faults: unknown, extra: string[] = []) {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: tag, steps: 1 }));
    if (faults) await addFaults(fx.server, faults);
    const counts = countsFrom(fx.server);
    const started = Date.now();
    const res = await wes(['jobs', 'submit', flow, '--verbose', ...extra]);
    return { res, posts: counts.delta(SUBMIT), jobs: jobsTagged(fx.server, tag), keys: idempotencyKeysSent(res.stderr), ms: Date.now() - started };
  }

  /** One job, created once, whose id is what wes printed; every attempt sent the same key. */
  function expectOneJob(run: Awaited<ReturnType<typeof submit>>, attempts: number) {
    expect(run.res.code, run.res.stderr).toBe(0);
    expect(run.posts).toBe(attempts);
    expect(run.jobs).toHaveLength(1);
    expect(run.res.stdout.trim()).toBe(run.jobs[0]);
    expect(run.keys).toHaveLength(attempts);
    expect(new Set(run.keys).size).toBe(1);
  }

  it('a connection reset before any answer: retried with the same key, one job', async () => {
    const run = await submit('reset-before', { match: SUBMIT, action: 'drop' });
    expectOneJob(run, 2);
  });

  it('a connection reset mid-answer (the job was created): the replay returns that same job', async () => {
    const run = await submit('reset-during', { match: SUBMIT, action: 'drop', after_bytes: 40 });
    expectOneJob(run, 2);
  });

  it('a truncated JSON answer (Content-Length not met): replayed, still one job', async () => {
    const run = await submit('truncated', { match: SUBMIT, action: 'truncate', after_bytes: 25 });
    expectOneJob(run, 2);
  });

  it('a 429 storm with Retry-After: waits as told between attempts, one job', async () => {
    const run = await submit('storm-ra', { match: SUBMIT, action: 'status', status: 429, count: 2, retry_after: 1, body: v2Error('queue_full') });
    expectOneJob(run, 3);
    expect(run.ms).toBeGreaterThanOrEqual(2000);
    expect(run.res.stderr.match(/retry \d\/4 in 1000 ms/g)).toHaveLength(2);
  });

  it('a 429 storm without Retry-After: capped exponential backoff, one job', async () => {
    const run = await submit('storm-backoff', { match: SUBMIT, action: 'status', status: 429, count: 3, body: v2Error('rate_limited') });
    expectOneJob(run, 4);
    const delays = [...run.res.stderr.matchAll(/retry \d\/4 in (\d+) ms/g)].map((m) => Number(m[1]));
    expect(delays).toHaveLength(3);
    // Equal jitter around 300 ms doubling: [150,300], [300,600], [600,1200].
    delays.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual(150 * 2 ** i);
      expect(d).toBeLessThanOrEqual(300 * 2 ** i);
    });
  });

  it('a 429 storm longer than --retries: exit 7 after exactly retries+1 attempts, no job', async () => {
    const run = await submit('storm-long', { match: SUBMIT, action: 'status', status: 429, count: 20, retry_after: 0, body: v2Error('queue_full', 'the queue is full') }, ['--retries', '2']);
    expect(run.res.code).toBe(7);
    expect(run.posts).toBe(3);
    expect(run.jobs).toHaveLength(0);
    expect(run.res.stdout).toBe('');
    expect(run.res.stderr).toContain('the queue is full');
    await fetch(`${fx.server.url}/__dev/faults`, { method: 'DELETE' });
  });

  it('a 500/502/503 burst: each retried with the same key, one job', async () => {
    const run = await submit('burst', [
      { match: SUBMIT, action: 'status', status: 500, body: v2Error('upstream_error') },
      { match: SUBMIT, action: 'status', status: 502, body: '<html>bad gateway</html>', retry_after: 0 },
      { match: SUBMIT, action: 'status', status: 503, retry_after: 0, body: v2Error('service_unavailable') },
    ]);
    expectOneJob(run, 4);
  });

  it('a burst longer than --retries ends with the last error\'s exit code and never a second job', async () => {
    const five = await submit('burst-503', { match: SUBMIT, action: 'status', status: 503, count: 3, retry_after: 0, body: v2Error('service_unavailable', 'down for now') }, ['--retries', '1']);
    expect(five.res.code).toBe(7);
    expect(five.posts).toBe(2);
    expect(five.jobs).toHaveLength(0);
    const boom = await submit('burst-500', { match: SUBMIT, action: 'status', status: 500, count: 3, body: v2Error('upstream_error', 'it broke') }, ['--retries', '1']);
    expect(boom.res.code).toBe(1);
    expect(boom.posts).toBe(2);
    expect(boom.jobs).toHaveLength(0);
    await fetch(`${fx.server.url}/__dev/faults`, { method: 'DELETE' });
  });

  it('a given --idempotency-key is the one sent on every attempt, and a rerun with it creates nothing new', async () => {
    const key = 'fault-suite-fixed-key-1';
    const run = await submit('fixed-key', { match: SUBMIT, action: 'drop', after_bytes: 10 }, ['--idempotency-key', key]);
    expectOneJob(run, 2);
    expect(run.keys[0]).toBe(key);
    const again = await submit('fixed-key', null, ['--idempotency-key', key]);
    expect(again.res.code).toBe(0);
    expect(again.jobs).toEqual(run.jobs);
    expect(again.res.stdout.trim()).toBe(run.jobs[0]);
  });
});
