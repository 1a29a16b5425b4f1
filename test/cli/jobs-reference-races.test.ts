// wes against the reference self-hosted server's races and its cancel, played by the dev-server
// (`--surface self-hosted`; races asked for with the `race` fault, as recorded in
// ../shared/observations/recordings/v2-proxy-edges.json): a stream that ends on `running` or
// `expired` is opened again after a short backoff and the job read is the truth; a stream that
// hears of the end late, or sends the outputs after the final status, loses nothing; a transient
// `expired` read is read again; a cancel the server takes without effect is said as such.
import { beforeAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { addFaults, imageWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { hurriedFrom } from '../helpers/hurry.js';

/** About 2.5 s at 60 ms a step: long enough to be running when wes looks, short enough to wait for. */
const LONG = { steps: 40 };

/** The last document of a --json watch (one per snapshot, as NDJSON). */
function lastJson(stdout: string): Record<string, any> {
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, any>;
}

function eventsOpened(server: DevServerHandle, id: string): number {
  return server.state.requestCounts.get(`GET /api/v2/jobs/${id}/events`) ?? 0;
}

describe('wes against the reference server\'s event stream races', () => {
  const ctx = useDevServer({ deployment: 'self-hosted', faults: true, stepMs: 60, keepaliveMs: 300 });
  const wes = (args: string[]) => runWes(args, { env: { WES_BASE_URL: ctx.server.url } });
  // The first in-process watch loads wes's modules (seconds on a loaded machine): done before a
  // job's time starts to run, so that the races below meet a running job.
  beforeAll(async () => {
    const quick = (await submitJob(ctx.server, imageWorkflow({ steps: 1 }))).body;
    await wes(['jobs', 'watch', quick.id, '--interval', '0.05']);
  }, 60_000);

  for (const race of ['end-running', 'end-expired'] as const) {
    it(`a stream that ends early (${race}) is opened again after a short backoff, and the job read says it succeeded`, async () => {
      const job = (await submitJob(ctx.server, imageWorkflow(LONG))).body;
      await addFaults(ctx.server, { match: `GET /api/v2/jobs/${job.id}/events`, action: 'race', race });
      // A long poll interval: only the stream opened again brings the end early.
      // Once the stream is opened again, the rest is the job's run to its end.
      const res = await hurriedFrom(ctx.server, () => eventsOpened(ctx.server, job.id) >= 2, wes(['jobs', 'watch', job.id, '--interval', '30', '--verbose', '--json']));
      expect(res.code, res.stderr).toBe(0);
      expect(lastJson(res.stdout)).toMatchObject({ id: job.id, status: 'succeeded', outputs: [expect.objectContaining({ name: expect.any(String) })] });
      expect(res.stderr).toContain('the event stream ended before the job did; opening it again after 100 ms');
      expect(eventsOpened(ctx.server, job.id)).toBeGreaterThanOrEqual(2);
    });
  }

  it('a stream that hears of the end only at a keep-alive, and one that sends the outputs after the final status, lose no output', async () => {
    for (const race of ['late', 'output-after'] as const) {
      const job = (await submitJob(ctx.server, imageWorkflow({ steps: 3 }))).body;
      await addFaults(ctx.server, { match: `GET /api/v2/jobs/${job.id}/events`, action: 'race', race });
      const res = await wes(['jobs', 'watch', job.id, '--interval', '30', '--json']);
      expect([race, res.code], res.stderr).toEqual([race, 0]);
      expect(lastJson(res.stdout).outputs).toHaveLength(1);
    }
  });

  it('a transient `expired` read is read again before it is believed', async () => {
    const job = (await submitJob(ctx.server, imageWorkflow({ steps: 1 }))).body;
    await waitForJob(ctx.server, job.urls.self, ['succeeded']);
    await addFaults(ctx.server, { match: `GET /api/v2/jobs/${job.id}`, action: 'race', race: 'expired-read' });
    const before = ctx.server.state.requestCounts.get(`GET /api/v2/jobs/${job.id}`) ?? 0;
    const res = await wes(['jobs', 'get', job.id, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ status: 'succeeded', outputs: [expect.any(Object)] });
    expect((ctx.server.state.requestCounts.get(`GET /api/v2/jobs/${job.id}`) ?? 0) - before).toBe(2);
  });
});

describe('jobs cancel on the reference server, whose engine cannot stop jobs', () => {
  const ctx = useDevServer({ deployment: 'self-hosted', stepMs: 60 });
  const wes = (args: string[], configDir?: string) => runWes(args, { env: { WES_BASE_URL: ctx.server.url }, ...(configDir ? { configDir } : {}) });

  it('says plainly that a running job and a queued one may run on, never "canceled"; --wait says how it really ended', async () => {
    const running = (await submitJob(ctx.server, imageWorkflow(LONG))).body;
    const queued = (await submitJob(ctx.server, imageWorkflow({ steps: 1 }))).body;
    await waitForJob(ctx.server, running.urls.self, ['running']);
    const first = await wes(['jobs', 'cancel', running.id]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(`asked to cancel job ${running.id}, but it is still running: this service may not stop it, and it may run on to the end`);
    expect(first.stderr).not.toMatch(/\bcanceled\b/);
    const second = await wes(['jobs', 'cancel', queued.id, '--json']);
    expect(second.stderr).toContain(`asked to cancel job ${queued.id}, but it is still queued`);
    expect(JSON.parse(second.stdout).status).toBe('queued');
    // Once the second cancel has reached the server, the rest is the job's run to its end.
    const cancels = () => ctx.server.state.requestCounts.get(`POST /api/v2/jobs/${running.id}/cancel`) ?? 0;
    const waited = await hurriedFrom(ctx.server, () => cancels() >= 2, wes(['jobs', 'cancel', running.id, '--wait', '--interval', '0.05']));
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stderr).toContain(`note: the cancel did not take effect: job ${running.id} ran to the end and succeeded`);
    expect((await waitForJob(ctx.server, queued.urls.self, ['succeeded'])).outputs).toHaveLength(1);
  });
});

describe('jobs cancel on a server where cancel works (cancel: effective)', () => {
  const ctx = useDevServer({ deployment: 'self-hosted', stepMs: 60, cancel: 'effective' });

  it('says the job is canceling or canceled', async () => {
    const cfg = tempConfigDir();
    try {
      const job = (await submitJob(ctx.server, imageWorkflow(LONG))).body;
      await waitForJob(ctx.server, job.urls.self, ['running']);
      const res = await runWes(['jobs', 'cancel', job.id], { env: { WES_BASE_URL: ctx.server.url }, configDir: cfg.dir });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(new RegExp(`✓ asked to cancel job ${job.id}: it is cancel(ing|ed)`));
      expect((await waitForJob(ctx.server, job.urls.self, ['canceled', 'succeeded'])).status).toBe('canceled');
    } finally {
      cfg.cleanup();
    }
  });
});
