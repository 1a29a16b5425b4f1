// Faults on reads, through the binary: resets before and during an answer, a body that is not
// JSON, a stalled body (only --timeout ends it: exit 8), 5xx bursts, and an event stream that
// stops sending or breaks (the watch finishes by polling). Request counts stay bounded.
import { describe, expect, it } from 'vitest';
import { addFaults, imageWorkflow, submitJob, useServerPerTest } from '../helpers/dev-server.js';
import { wesAgainst } from '../cli/jobs-env.js';
import { countsFrom, finishedJobId } from './kit.js';
import { atPace, hurriedFrom } from '../helpers/hurry.js';

// Each test has a server of its own (its faults, request counts and engine pace), so the tests run
// side by side: most of the file is waiting out backoff, a --timeout and the jobs watched.
describe.concurrent('faults on reads', () => {
  const ownServer = useServerPerTest({ faults: true, stepMs: 5 });

  /** A dev-server with faults for one test, wes against it, and a finished job on it. */
  async function own() {
    const server = await ownServer();
    return {
      server,
      wes: wesAgainst(() => server),
      finished: (prefix: string) => finishedJobId(server, imageWorkflow({ prefix, steps: 1 })),
      /**
       * Jobs made in `body` step at 40 ms: one that must still be running when wes opens its event
       * stream (150 steps: 6 s) outlives a slow start on a loaded machine; the test hurries it
       * (hurriedFrom) once wes has attached.
       */
      paced: (body: () => Promise<void>) => atPace(server, 40, body),
    };
  }

  it('a reset before the answer and one mid-answer are both retried; the read succeeds', async () => {
    const { server, wes, finished } = await own();
    const id = await finished('r1');
    const self = `GET /api/v2/jobs/${id}`;
    await addFaults(server, [
      { match: self, action: 'drop' },
      { match: self, action: 'drop', after_bytes: 30 },
    ]);
    const counts = countsFrom(server);
    const res = await wes(['jobs', 'get', id, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ id, status: 'succeeded' });
    expect(counts.delta(self)).toBe(3);
  });

  it('a body that is not JSON (consistent length) is an unreadable response: exit 1, one request', async () => {
    const { server, wes, finished } = await own();
    const id = await finished('r2');
    const self = `GET /api/v2/jobs/${id}`;
    await addFaults(server, { match: self, action: 'status', status: 200, body: '{"id":"' + id + '","sta', headers: { 'content-type': 'application/json' } });
    const counts = countsFrom(server);
    const res = await wes(['jobs', 'get', id]);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('not valid JSON');
    expect(counts.delta(self)).toBe(1);
  });

  it('a stalled body is ended by --timeout: exit 8 soon after the deadline, no retry after it', async () => {
    const { server, wes, finished } = await own();
    const id = await finished('r3');
    const self = `GET /api/v2/jobs/${id}`;
    await addFaults(server, { match: self, action: 'stall' });
    const counts = countsFrom(server);
    const started = Date.now();
    const res = await wes(['jobs', 'get', id, '--timeout', '0.6']);
    const took = Date.now() - started;
    expect(res.code).toBe(8);
    expect(res.stderr).toContain('timed out');
    expect(res.stdout).toBe('');
    expect(took).toBeGreaterThanOrEqual(600);
    expect(counts.delta(self)).toBe(1);
  });

  it('a 500/502/503 burst on a read is retried; a longer one ends with its exit code within --retries', async () => {
    const { server, wes, finished } = await own();
    const id = await finished('r4');
    const self = `GET /api/v2/jobs/${id}`;
    // No Retry-After: wes would wait at least 1 s for one (even "0"); the backoff's steps are shorter.
    await addFaults(server, [500, 502, 503].map((status) => ({ match: self, action: 'status', status })));
    let counts = countsFrom(server);
    const ok = await wes(['jobs', 'get', id]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(counts.delta(self)).toBe(4);

    await addFaults(server, { match: self, action: 'status', status: 502, count: 10 });
    counts = countsFrom(server);
    const bad = await wes(['jobs', 'get', id, '--retries', '2']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('HTTP 502');
    expect(counts.delta(self)).toBe(3);
  });

  it('an event stream that stops sending: the watch still finishes by polling', async () => {
    const { server, wes, paced } = await own();
    await paced(async () => {
      const id = (await submitJob(server, imageWorkflow({ prefix: 'sse-stall', steps: 150 }))).body.id as string;
      const events = `GET /api/v2/jobs/${id}/events`;
      await addFaults(server, { match: events, action: 'stall' });
      const counts = countsFrom(server);
      const started = Date.now();
      const res = await hurriedFrom(server, () => counts.delta(events) >= 1, wes(['jobs', 'watch', id, '--interval', '0.1', '--json']));
      const took = Date.now() - started;
      expect(res.code, res.stderr).toBe(0);
      expect(JSON.parse(res.stdout.trim().split('\n').at(-1)!)).toMatchObject({ id, status: 'succeeded' });
      expect(counts.delta(events)).toBe(1);
      const polls = counts.delta(`GET /api/v2/jobs/${id}`);
      expect(polls).toBeGreaterThanOrEqual(1);
      // Polling at 0.1 s: no more reads than the time allows (plus slack for start-up).
      expect(polls).toBeLessThanOrEqual(Math.ceil(took / 100) + 3);
    });
  });

  it('an event stream cut mid-event is opened again (once: the next one runs to the end); one refused with a 429 storm is not: polling takes over', async () => {
    const { server, wes, paced } = await own();
    await paced(async () => {
      for (const [fault, opened] of [
        [{ action: 'truncate', after_bytes: 100 }, 2],
        [{ action: 'status', status: 429, retry_after: 0, count: 5 }, 1],
      ] as const) {
        const id = (await submitJob(server, imageWorkflow({ prefix: 'sse-cut', steps: 120 }))).body.id as string;
        const events = `GET /api/v2/jobs/${id}/events`;
        await addFaults(server, { match: events, ...fault });
        const counts = countsFrom(server);
        // Hurried only once the stream has been opened as often as this fault leads to: a job that ended sooner would not be watched again.
        const res = await hurriedFrom(server, () => counts.delta(events) >= opened, wes(['jobs', 'watch', id, '--interval', '0.1']));
        expect(res.code, res.stderr).toBe(0);
        expect(res.stderr).toContain(`job ${id} succeeded`);
        expect([fault.action, counts.delta(events)]).toEqual([fault.action, opened]);
      }
    });
  });
});
