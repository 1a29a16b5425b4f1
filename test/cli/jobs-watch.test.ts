// `wes jobs watch|get|cancel` through the built binary: every terminal outcome and its exit code,
// SSE and polling, a broken or refused event stream, a 429 storm, Ctrl-C and --timeout.
// Each test but the expiry one has a dev-server of its own (its engine and pace, faults and
// request counts), so they run side by side: most of the file is waiting on jobs and Retry-After.
import { beforeAll, describe, expect, it } from 'vitest';
import { addFaults, finishedJob, getJson, imageWorkflow, submitJob, useDevServer, useServerPerTest, waitForJob } from '../helpers/dev-server.js';
import { hurried } from '../helpers/hurry.js';
import { changeKey } from '../../src/clients/jobs/follow-job.js';
import type { Job } from '../../src/protocol/jobs.js';
import { failWorkflow, interruptWhen, ndjson, seen, useTempDir, wesAgainst, writeTemp } from './jobs-env.js';

const LONG = { steps: 150 }; // 150 steps of 10 ms: long enough to interrupt
// A job that outlives a slow machine's start of `wes` (CI once started it after 1.5 s had passed):
// three samplers of 150 steps (the node's most) in a row, 4.5 s.
function longerWorkflow() {
  const flow = imageWorkflow(LONG) as Record<string, { class_type: string; inputs: Record<string, unknown> }>;
  const sample = flow['2']!;
  flow['4'] = { class_type: sample.class_type, inputs: { ...sample.inputs, image: ['2', 0] } };
  flow['5'] = { class_type: sample.class_type, inputs: { ...sample.inputs, image: ['4', 0] } };
  flow['3']!.inputs.images = ['5', 0];
  return flow;
}

describe.concurrent('wes jobs watch', () => {
  const ownServer = useServerPerTest({ faults: true, stepMs: 10 });
  const dir = useTempDir();
  /** A dev-server for one test, wes pointed at it, and what submits and awaits its jobs. */
  async function own() {
    const server = await ownServer();
    return {
      server,
      wes: wesAgainst(() => server),
      submit: async (workflow = imageWorkflow()) => (await submitJob(server, workflow)).body.id as string,
      /** A job wes left running still ends in success: hurried, as wes has exited and the test only waits. */
      runsOnToSuccess: (id: string) => hurried(server, () => waitForJob(server, `/api/v2/jobs/${id}`, ['succeeded'])),
    };
  }
  // A worker's first wes run of a command imports it (vitest transforms it: seconds on a loaded
  // machine). Several tests' windows are a job's length from its submit to wes's first read; run
  // side by side, they would all start cold and spend it there. So the commands are imported first.
  beforeAll(async () => {
    const { server, wes } = await own();
    const { id } = await finishedJob(server, imageWorkflow({ steps: 1 }));
    await Promise.all(['watch', 'get', 'cancel'].map((command) => wes(['jobs', command, id])));
  });

  // First, as it waits longest (three Retry-After seconds): the others run meanwhile.
  it('backs off through a 429 storm, honouring Retry-After, and still ends 0', async () => {
    const { server, wes, submit } = await own();
    const id = await submit(imageWorkflow({ steps: 100 }));
    // The first read goes through (a pass-through fault), the three polls after it are throttled.
    await addFaults(server, [
      { match: `GET /api/v2/jobs/${id}`, count: 1, action: 'delay', delay_ms: 0 },
      { match: `GET /api/v2/jobs/${id}`, count: 3, action: 'status', status: 429, retry_after: 1, body: { error: { code: 'rate_limited', message: 'slow down' } } },
    ]);
    const started = Date.now();
    const res = await wes(['jobs', 'watch', id, '--no-events', '--interval', '0.05', '--retries', '0', '--verbose']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr.match(/polling throttled \(rate_limited\); next read in \d+ ms/g), res.stderr).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThan(3000);
  });

  it('succeeded: one stderr line per change, outputs as committed, exit 0, nothing on stdout', async () => {
    const { wes, submit } = await own();
    const id = await submit(imageWorkflow({ steps: 5 }));
    const res = await wes(['jobs', 'watch', id, '--interval', '0.1']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('');
    const lines = res.stderr.trim().split('\n');
    expect(new Set(lines).size).toBe(lines.length);
    expect(res.stderr).toContain('+ wes_00001_.png (image,');
    expect(lines.at(-1)).toMatch(new RegExp(`^job ${id} succeeded in .*: 1 output$`));
  });

  it('--json prints NDJSON of changed snapshots, the last one terminal', async () => {
    const { wes } = await own();
    const flow = writeTemp(dir(), imageWorkflow({ steps: 20 }));
    const res = await wes(['jobs', 'submit', flow, '--wait', '--json', '--interval', '0.05']);
    expect(res.code).toBe(0);
    const jobs = ndjson(res.stdout) as Job[];
    const id = jobs[0]!.id;
    expect(jobs.length).toBeGreaterThan(1);
    for (const job of jobs) expect(job.id).toBe(id);
    for (let i = 1; i < jobs.length; i++) expect(changeKey(jobs[i]!)).not.toBe(changeKey(jobs[i - 1]!));
    expect(jobs.at(-1)!.status).toBe('succeeded');
    expect(jobs.slice(0, -1).every((j) => j.status !== 'succeeded')).toBe(true);
    expect(res.stderr).toBe(`submitted job ${id}\n`);
  });

  it('failed: exit 3 with the error, node and class; the traceback only with --verbose', async () => {
    const { wes, submit } = await own();
    const id = await submit(failWorkflow('it broke'));
    const res = await wes(['jobs', 'watch', id, '--interval', '0.1']);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/failed .*it broke \(node 2, Fail\)/);
    expect(res.stderr).toContain('traceback hidden');
    expect(res.stderr).not.toContain('Traceback (most recent call last)');
    const get = await wes(['jobs', 'get', id, '--verbose']);
    expect(get.code).toBe(0);
    expect(get.stdout).toMatch(/status\s+failed/);
    expect(get.stdout).toContain('Traceback (most recent call last)');
    expect(get.stdout).toContain('fail.py');
    const json = await wes(['jobs', 'get', id, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ id, status: 'failed', error: { node_id: '2', class_type: 'Fail' } });
  });

  it('strips terminal control sequences from server text (watch and get)', async () => {
    const { wes, submit } = await own();
    const id = await submit(failWorkflow('evil \u001b]0;owned\u0007\u001b[2Jtext\u202e'));
    const watch = await wes(['jobs', 'watch', id, '--interval', '0.1']);
    expect(watch.code).toBe(3);
    expect(watch.stderr).toContain('evil text');
    const get = await wes(['jobs', 'get', id, '--verbose']);
    for (const text of [watch.stderr, get.stdout]) expect(text).not.toMatch(/[\u0007\u001b\u202e]/);
    const json = await wes(['jobs', 'get', id, '--json']);
    expect(JSON.parse(json.stdout).error.message).toBe('evil \u001b]0;owned\u0007\u001b[2Jtext\u202e');
  });

  it('canceled: cancel --wait ends 0, watch of a canceled job ends 10; --json prints the Job', async () => {
    const { server, wes, submit } = await own();
    const id = await submit(imageWorkflow(LONG));
    await waitForJob(server, `/api/v2/jobs/${id}`, ['running']);
    const cancel = await wes(['jobs', 'cancel', id, '--wait', '--interval', '0.05']);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stderr).toContain(`asked to cancel job ${id}`);
    expect(cancel.stderr).toContain('was canceled');
    const watch = await wes(['jobs', 'watch', id]);
    expect(watch.code).toBe(10);
    const again = await wes(['jobs', 'cancel', id, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).status).toBe('canceled');
    expect(again.stderr).toContain('already ended');

    const other = await submit(imageWorkflow(LONG));
    const json = await wes(['jobs', 'cancel', other, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: other, status: expect.stringMatching(/^cancel/) });
  });

  it('gets a job for humans: status, progress, timings, metrics and the outputs table', async () => {
    const { server, wes, submit } = await own();
    const id = await submit(imageWorkflow({ steps: 2 }));
    await waitForJob(server, `/api/v2/jobs/${id}`, ['succeeded']);
    const res = await wes(['jobs', 'get', id]);
    expect(res.code).toBe(0);
    for (const label of ['id', 'status', 'progress', 'created', 'started', 'completed', 'ran for', 'expires', 'metric execution_ms']) {
      expect(res.stdout).toMatch(new RegExp(`^${label}\\s`, 'm'));
    }
    expect(res.stdout).toMatch(/^output\twes_00001_\.png\timage\t[\d.]+ (B|KiB)\t3$/m);
    const missing = await wes(['jobs', 'get', '00000000-0000-0000-0000-000000000000']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('code job_not_found'); // Comfy Cloud's code, as the default surface answers
  });

  it('listens on the event stream: an hour\'s poll interval still sees every change at once', async () => {
    const { server, wes } = await own();
    const flow = writeTemp(dir(), imageWorkflow({ steps: 20 }));
    const res = await wes(['jobs', 'submit', flow, '--wait', '--interval', '3600', '--json']);
    expect(res.code).toBe(0);
    const jobs = ndjson(res.stdout);
    expect(jobs.length).toBeGreaterThan(2);
    expect(jobs.at(-1)!.status).toBe('succeeded');
    const id = jobs[0]!.id;
    expect(seen(server, `GET /api/v2/jobs/${id}/events`)).toBe(1);
    // Polling once an hour, every read after the first was woken by an event.
    expect(seen(server, `GET /api/v2/jobs/${id}`)).toBeGreaterThanOrEqual(2);
  });

  it('--no-events polls only', async () => {
    const { server, wes } = await own();
    const flow = writeTemp(dir(), imageWorkflow({ steps: 20 }));
    const res = await wes(['jobs', 'submit', flow, '--wait', '--no-events', '--interval', '0.05', '--json']);
    expect(res.code).toBe(0);
    const id = ndjson(res.stdout)[0]!.id;
    expect(seen(server, `GET /api/v2/jobs/${id}/events`)).toBe(0);
    expect(seen(server, `GET /api/v2/jobs/${id}`)).toBeGreaterThan(3);
  });

  it('a stream that drops mid-way is opened again without a word (except --verbose), polling meanwhile; a 501 is said in one line and not asked again', async () => {
    const { server, wes, submit } = await own();
    const dropped = await submit(imageWorkflow({ steps: 30 }));
    await addFaults(server, { match: `GET /api/v2/jobs/${dropped}/events`, action: 'drop', after_bytes: 2500 });
    const quiet = await wes(['jobs', 'watch', dropped, '--interval', '0.1']);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toMatch(/event stream/i);
    // The cut stream (the fault's one) and the one opened after it, which ran to the end.
    expect(seen(server, `GET /api/v2/jobs/${dropped}/events`)).toBe(2);

    const refused = await submit(imageWorkflow({ steps: 30 }));
    await addFaults(server, { match: `GET /api/v2/jobs/${refused}/events`, action: 'status', status: 501, body: { error: { code: 'not_implemented', message: 'no events here' } } });
    const said = await wes(['jobs', 'watch', refused, '--interval', '0.1']);
    expect(said.code).toBe(0);
    expect(said.stderr.match(/does not stream job events \(not_implemented\); following the job by polling$/gm)).toHaveLength(1);
    expect(seen(server, `GET /api/v2/jobs/${refused}/events`)).toBe(1);
  });

  it('Ctrl-C leaves the job running, says how to resume, exits 130', async () => {
    const { server, wes, submit, runsOnToSuccess } = await own();
    const id = await submit(longerWorkflow());
    const res = await wes(['jobs', 'watch', id, '--interval', '0.05'], { onSpawn: interruptWhen(/[0-9a-f]{8} running/) });
    expect(res.code).toBe(130);
    expect(res.stderr).toContain(`resume with: wes jobs watch ${id}`);
    const job = (await getJson(server, `/api/v2/jobs/${id}`)).body;
    expect(['running', 'succeeded']).toContain(job.status);
    await runsOnToSuccess(id);
  });

  it('--cancel-on-interrupt cancels the job before exiting 130', async () => {
    const { server, wes, submit } = await own();
    const id = await submit(longerWorkflow());
    const res = await wes(['jobs', 'watch', id, '--cancel-on-interrupt'], { onSpawn: interruptWhen(/[0-9a-f]{8} running/) });
    expect(res.code).toBe(130);
    expect(res.stderr).toContain(`asked the service to cancel job ${id}`);
    await waitForJob(server, `/api/v2/jobs/${id}`, ['canceled']);
  });

  it('--timeout ends the watch with exit 8 and leaves the job running', async () => {
    const { wes, submit, runsOnToSuccess } = await own();
    const id = await submit(imageWorkflow(LONG));
    const res = await wes(['jobs', 'watch', id, '--timeout', '0.4']);
    expect(res.code).toBe(8);
    expect(res.stderr).toContain(`resume with: wes jobs watch ${id}`);
    expect(res.stderr).toContain('timed out');
    await runsOnToSuccess(id);
  });
});

describe('wes jobs watch: expiry', () => {
  // The job outlives its retention (150 steps of 30 ms against 1.5 s), and an expired job stays
  // readable for one more retention period: the watch has 1.5 s to start before it is forgotten.
  // So it runs alone, after the tests above, with no others contending for its start.
  const ctx = useDevServer({ stepMs: 30, retentionMs: 1500 });
  const wes = wesAgainst(() => ctx.server);

  it('expired: exit 3 and says the retention passed', async () => {
    const id = (await submitJob(ctx.server, imageWorkflow(LONG))).body.id as string;
    const res = await wes(['jobs', 'watch', id, '--interval', '0.05']);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain(`job ${id} expired`);
  });
});
