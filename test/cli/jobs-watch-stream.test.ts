// `jobs watch` against the event stream as the published contract defines it and as the reference
// self-hosted server sends it (../shared/observations/job-api-v2-reference.md): the polled running
// job carries no progress ({value 0, nodes 0/0}), the stream's progress snapshots are the live
// progress, `value` goes down when a node starts, `status` carries {status, queue_position}, the
// last `status` may say expired for a job that succeeded, an `output` may come after it; 429
// too_many_streams leaves the watch polling with one line said.
import { describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { jobJson, openStream, outputJson, sendEvent, useFakeJobApi, type FakeJob } from './fake-job-api.js';
import { ndjson } from './jobs-env.js';
import type { Job } from '../../src/protocol/jobs.js';

const POLLED_RUNNING = { value: 0, nodes_done: 0, nodes_total: 0 };
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The recorded sse_A, shortened: snapshots that go up, then down when the sampler starts. */
const STREAMED = [
  { value: 1, nodes_done: 4, nodes_total: 4, current_node: null, step: null, steps: null },
  { value: 0.825, nodes_done: 4, nodes_total: 5, current_node: '5', step: 1, steps: 8 },
  { value: 0.9, nodes_done: 4, nodes_total: 5, current_node: '5', step: 4, steps: 8 },
];

/** A job run as the reference server runs it: progress on the stream only, an `expired` final status, the output after it. */
function referenceRun(id: string): FakeJob {
  const output = outputJson(`eyJqIjogIm${'x'.repeat(120)}.sig-_`, 'rnd8_00017_.png');
  return {
    state: jobJson(id, 'running', { progress: POLLED_RUNNING }),
    async events(res, job) {
      openStream(res);
      sendEvent(res, 'status', { status: 'running' });
      sendEvent(res, 'progress', POLLED_RUNNING);
      for (const progress of STREAMED) {
        await pause(300);
        sendEvent(res, 'progress', progress);
      }
      await pause(300);
      job.state = { ...job.state, status: 'succeeded', progress: null, outputs: [output] };
      sendEvent(res, 'status', { status: 'expired' });
      sendEvent(res, 'output', output);
      res.end();
    },
  };
}

// Each test follows a job of its own on the fake server: they run side by side, each mostly waiting.
describe.concurrent('jobs watch: the event stream as published', () => {
  const api = useFakeJobApi();
  const wes = (args: string[]) => runWes(args, { env: { WES_BASE_URL: api().url } });

  it('shows the stream\'s progress while polls say 0/0, as it comes (down too), and reads the job for the verdict', async () => {
    const job = api().add(referenceRun('ref-run-1'));
    const res = await wes(['jobs', 'watch', job.state.id, '--interval', '0.2']);
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stderr.split('\n');
    const at = (text: string) => lines.findIndex((l) => l.includes(text));
    expect(at('running 100% · nodes 4/4')).toBeGreaterThan(-1);
    expect(at('running 83% · nodes 4/5 · step 1/8')).toBeGreaterThan(at('running 100% · nodes 4/4'));
    expect(at('running 90% · nodes 4/5 · step 4/8')).toBeGreaterThan(at('running 83%'));
    // No poll (always 0/0) took the progress back once the stream had given some.
    expect(lines.slice(at('running 100%')).some((l) => / running 0%/.test(l))).toBe(false);
    expect(res.stderr).toContain('+ rnd8_00017_.png (image, node 7)');
    expect(lines.filter(Boolean).at(-1)).toBe('job ref-run-1 succeeded: 1 output');
    expect(res.stderr).not.toMatch(/expired/);
  });

  it('--json: the polled Jobs with the stream\'s latest progress in them; the last line the job as read', async () => {
    const job = api().add(referenceRun('ref-run-2'));
    const res = await wes(['jobs', 'watch', job.state.id, '--interval', '0.2', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const jobs = ndjson(res.stdout) as unknown as Job[];
    for (const j of jobs) expect(Object.keys(j)).toEqual(Object.keys(job.state));
    const values = jobs.map((j) => j.progress?.value ?? null);
    expect(values).toContain(0.825);
    expect(values.indexOf(0.825)).toBeGreaterThan(values.indexOf(1));
    const last = jobs.at(-1)!;
    expect(last).toMatchObject({ status: 'succeeded', progress: null });
    expect(last.outputs).toHaveLength(1);
  });

  it('a status event wakes the read: an hour\'s interval still ends as soon as the job does', async () => {
    const job = api().add({
      state: jobJson('queued-then-done', 'queued', { queue_position: 2 }),
      async events(res, j) {
        openStream(res);
        sendEvent(res, 'status', { status: 'queued', queue_position: 2 });
        await pause(200);
        j.state = { ...j.state, status: 'queued', queue_position: 1 };
        sendEvent(res, 'status', { status: 'queued', queue_position: 1 });
        await pause(200);
        j.state = { ...j.state, status: 'succeeded', queue_position: null };
        sendEvent(res, 'status', { status: 'succeeded' });
        res.end();
      },
    });
    const res = await wes(['jobs', 'watch', job.state.id, '--interval', '3600']);
    expect(res.code, res.stderr).toBe(0);
    // Polling once an hour, every read after the first was woken by an event.
    expect(api().reads(job.state.id)).toBeGreaterThanOrEqual(2);
    expect(res.stderr).toContain('queued-t queued · queue position 1');
  });

  it('a stream opened while queued sends no `running`: its progress wakes the read that learns it', async () => {
    const job = api().add({
      state: jobJson('starts-silently', 'queued', { queue_position: 1 }),
      async events(res, j) {
        openStream(res);
        sendEvent(res, 'status', { status: 'queued', queue_position: 1 });
        await pause(200);
        j.state = { ...j.state, status: 'running', queue_position: null, progress: POLLED_RUNNING };
        sendEvent(res, 'progress', { value: 0.25, nodes_done: 0, nodes_total: 1, current_node: '5', step: 2, steps: 8 });
        await pause(400);
        j.state = { ...j.state, status: 'succeeded', progress: null };
        sendEvent(res, 'status', { status: 'succeeded' });
        res.end();
      },
    });
    const res = await wes(['jobs', 'watch', job.state.id, '--interval', '30']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('starts-s running 25% · nodes 0/1 · step 2/8');
  });

  it('429 too_many_streams: one line, then the job is followed by polling to its end', async () => {
    const running = jobJson('too-many', 'running');
    api().add({
      state: { ...running, status: 'succeeded' },
      reads: [running, running, running],
      events(res) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '5' }).end(JSON.stringify({ error: { code: 'too_many_streams', message: 'at most 8 streams' } }));
      },
    });
    const res = await wes(['jobs', 'watch', 'too-many', '--interval', '0.05']);
    expect(res.code, res.stderr).toBe(0);
    expect(api().reads('too-many')).toBe(4);
    expect(res.stderr.match(/too many event streams open for this caller \(too_many_streams\); following the job by polling/g)).toHaveLength(1);
  });

  it('a payload that does not fit the contract is skipped, the rest still read', async () => {
    const job = api().add({
      state: jobJson('odd-payloads', 'running', { progress: null }),
      async events(res, j) {
        openStream(res);
        sendEvent(res, 'progress', { value: 'half' });
        sendEvent(res, 'preview', { node_id: '5', content_type: 'image/jpeg', data: 'AAAA' });
        sendEvent(res, 'log', { level: 'info', message: 'reserved' });
        sendEvent(res, 'progress', { value: 0.5, nodes_done: 1, nodes_total: 2 });
        await pause(300);
        j.state = { ...j.state, status: 'succeeded' };
        sendEvent(res, 'status', { status: 'succeeded' });
        res.end();
      },
    });
    const res = await wes(['jobs', 'watch', job.state.id, '--interval', '30', '--verbose']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('running 50% · nodes 1/2');
    expect(res.stderr).toContain('skipped a progress event that does not fit the published payload');
    expect(res.stderr).toContain('skipped a preview event that does not fit the published payload');
  });
});
