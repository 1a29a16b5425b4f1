// Faults on `jobs submit` (a POST): a connection reset before or during the answer, a truncated
// answer, 429 storms with and without Retry-After, 5xx. Idempotency-Keys are single use (the
// published contract): only a 429, which refused the request and released its key, is sent again
// with the same key; anything that may have made a job is never sent again, and the job is
// looked for by the key its label names in the server's job list (on here).
import { describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { addFaults, imageWorkflow, useServerPerTest } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst, writeTemp } from '../cli/jobs-env.js';
import { countsFrom, idempotencyKeysSent, jobsTagged } from './kit.js';

const SUBMIT = 'POST /api/v2/jobs';
const v2Error = (code: string, message = 'scripted') => ({ error: { code, message } });

// Each test has a server of its own (its faults and request counts), so the tests run side by
// side: most of the file is waiting out backoff and Retry-After.
describe.concurrent('faults on jobs submit', () => {
  /** A dev-server for one test, with faults and a job list (where a submit in doubt is looked for). */
  const ownServer = useServerPerTest({ faults: true, jobList: true });
  const dir = useTempDir();

  /** Submits a workflow tagged `tag` with --verbose to `server`; returns the run and what the server saw. */
  async function submit(server: DevServerHandle, tag: string, faults: unknown, extra: string[] = []) {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: tag, steps: 1 }));
    if (faults) await addFaults(server, faults);
    const counts = countsFrom(server);
    const started = Date.now();
    const res = await wesAgainst(() => server)(['jobs', 'submit', flow, '--verbose', ...extra]);
    return { res, posts: counts.delta(SUBMIT), jobs: jobsTagged(server, tag), keys: idempotencyKeysSent(res.stderr), ms: Date.now() - started };
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

  /** Keys are single use: a submit with no usable answer is never sent again, and its job is looked for in the server's list. */
  function expectNotResent(run: Awaited<ReturnType<typeof submit>>) {
    expect(run.posts).toBe(1);
    expect(run.keys).toHaveLength(1);
    expect(run.res.stderr).not.toContain('idempotency_key_reuse');
  }

  it('a connection reset before any answer: not sent again; the list shows no job, so the real cause is said, safe to send again', async () => {
    const server = await ownServer();
    const run = await submit(server, 'reset-before', { match: SUBMIT, action: 'drop' });
    expectNotResent(run);
    expect(run.jobs).toHaveLength(0);
    expect(run.res.code).toBe(1);
    expect(run.res.stderr).toContain('broke');
    expect(run.res.stderr).toMatch(/made no job .*submitting again is safe/);
  });

  it('a connection reset mid-answer (the job was created): found by its key in the list, one job, one POST', async () => {
    const server = await ownServer();
    const run = await submit(server, 'reset-during', { match: SUBMIT, action: 'drop', after_bytes: 40 });
    expectNotResent(run);
    expect(run.res.code, run.res.stderr).toBe(0);
    expect(run.jobs).toHaveLength(1);
    expect(run.res.stdout.trim()).toBe(run.jobs[0]);
    expect(run.res.stderr).toContain(`found its job ${run.jobs[0]} by its Idempotency-Key`);
  });

  it('a truncated JSON answer (Content-Length not met): found by its key, still one job', async () => {
    const server = await ownServer();
    const run = await submit(server, 'truncated', { match: SUBMIT, action: 'truncate', after_bytes: 25 });
    expectNotResent(run);
    expect(run.res.code, run.res.stderr).toBe(0);
    expect(run.jobs).toHaveLength(1);
  });

  it('a 429 storm with Retry-After: waits as told between attempts, one job', async () => {
    const server = await ownServer();
    const run = await submit(server, 'storm-ra', { match: SUBMIT, action: 'status', status: 429, count: 2, retry_after: 1, body: v2Error('queue_full') });
    expectOneJob(run, 3);
    expect(run.ms).toBeGreaterThanOrEqual(2000);
    expect(run.res.stderr.match(/retry \d\/4 in 1000 ms/g)).toHaveLength(2);
  });

  it('a 429 storm without Retry-After: capped exponential backoff, one job', async () => {
    const server = await ownServer();
    const run = await submit(server, 'storm-backoff', { match: SUBMIT, action: 'status', status: 429, count: 3, body: v2Error('rate_limited') });
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
    const server = await ownServer();
    // No Retry-After: wes would wait at least 1 s for one (even 0); the backoff's steps are shorter.
    const run = await submit(server, 'storm-long', { match: SUBMIT, action: 'status', status: 429, count: 20, body: v2Error('queue_full', 'the queue is full') }, ['--retries', '2']);
    expect(run.res.code).toBe(7);
    expect(run.posts).toBe(3);
    expect(run.jobs).toHaveLength(0);
    expect(run.res.stdout).toBe('');
    expect(run.res.stderr).toContain('the queue is full');
  });

  it('a 5xx is not retried: one POST; a 5xx before the job was made says so, one after it finds the job', async () => {
    const server = await ownServer();
    const before = await submit(server, 'burst-503', { match: SUBMIT, action: 'status', status: 503, retry_after: 0, body: v2Error('upstream_error', 'the engine is unreachable') });
    expectNotResent(before);
    expect(before.jobs).toHaveLength(0);
    expect(before.res.code).toBe(1);
    expect(before.res.stderr).toContain('the engine is unreachable');
    expect(before.res.stderr).toMatch(/made no job/);
    const after = await submit(server, 'burst-502', { match: SUBMIT, action: 'after', status: 502, body: '<html>bad gateway</html>' });
    expectNotResent(after);
    expect(after.res.code, after.res.stderr).toBe(0);
    expect(after.jobs).toHaveLength(1);
    expect(after.res.stdout.trim()).toBe(after.jobs[0]);
  });

  it('a given --idempotency-key is sent once; the same key again is refused by the service and finds the job it made', async () => {
    const server = await ownServer();
    const key = 'fault-suite-fixed-key-1';
    const run = await submit(server, 'fixed-key', { match: SUBMIT, action: 'drop', after_bytes: 10 }, ['--idempotency-key', key]);
    expectNotResent(run);
    expect(run.res.code, run.res.stderr).toBe(0);
    expect(run.keys[0]).toBe(key);
    const again = await submit(server, 'fixed-key', null, ['--idempotency-key', key]);
    expect(again.res.code, again.res.stderr).toBe(0);
    expect(again.posts).toBe(1);
    expect(again.jobs).toEqual(run.jobs);
    expect(again.res.stdout.trim()).toBe(run.jobs[0]);
    expect(again.res.stderr).toContain(`this Idempotency-Key was used before; its job is ${run.jobs[0]}`);
  });
});
