// The values a client reads from the self-hosted surface, held against what the real reference
// server answered: its newest release in front of ComfyUI 0.3.64 (../fixtures/job-api-proxy-latest,
// 2026-11-28) and the recorded release (reference/v2-proxy-lifecycle.json): Python `isoformat()`
// times, `expires_at` 24 h after `created_at`, `url_expires_at` 24 h after the read, and
// `outputs_reused` once ComfyUI's cache served a node.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import lifecycle from './reference/v2-proxy-lifecycle.json' with { type: 'json' };
import { pythonIsoformat } from '../../src/dev-server/self-hosted/py-time.js';
import { getJson, submitJob, useDevServer, waitForJob, type Json } from '../helpers/dev-server.js';

const fixture = (name: string): Json => JSON.parse(readFileSync(new URL(`../fixtures/job-api-proxy-latest/${name}`, import.meta.url), 'utf8')) as Json;
const LIST = fixture('list.json');
const FLOW = fixture('flow.json');
/** The real jobs, oldest first: flow.json, flow.json again, another workflow, flow.json. */
const REAL = [...(LIST.body.jobs as Json[])].reverse();
/** When the real list was read (the transcript's `at=13:45:14`). */
const REAL_READ_AT = Date.parse('2026-11-28T13:45:14Z');

const PYTHON_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/;

const span = (from: string, to: string): number => Date.parse(to) - Date.parse(from);

describe('Python isoformat', () => {
  it('six fraction digits and +00:00, and no fraction when the microseconds are 0, as Python writes them', () => {
    expect(pythonIsoformat(Date.parse('2026-11-28T13:26:08.395Z'))).toBe('2026-11-28T13:26:08.395000+00:00');
    expect(pythonIsoformat(Date.parse('2026-11-28T13:26:08.000Z'))).toBe('2026-11-28T13:26:08+00:00');
    expect(pythonIsoformat(Date.parse('2026-11-28T13:26:08.007Z'))).toBe('2026-11-28T13:26:08.007000+00:00');
  });
});

describe('the self-hosted surface writes the values the reference server writes', () => {
  const ctx = useDevServer({ deployment: 'self-hosted', stepMs: 2 });

  async function run(workflow: Json): Promise<Json> {
    const { body } = await submitJob(ctx.server, workflow);
    await waitForJob(ctx.server, body.urls.self, ['succeeded']);
    return (await getJson(ctx.server, '/api/v2/jobs?limit=1')).body.jobs[0] as Json;
  }

  it('times as Python isoformat; expires_at = created_at + 24 h; url_expires_at = the read + 24 h', async () => {
    const real = REAL[0]!;
    const before = Date.now();
    const job = await run(FLOW);
    const after = Date.now();
    for (const time of [real.created_at, real.expires_at, real.outputs[0].url_expires_at]) expect(time).toMatch(PYTHON_TIME);
    for (const time of [job.created_at, job.expires_at, job.outputs[0].url_expires_at]) expect(time).toMatch(PYTHON_TIME);
    expect(span(job.created_at, job.expires_at)).toBe(span(real.created_at, real.expires_at));
    expect(span(real.created_at, real.expires_at)).toBe(24 * 3600_000);
    const realAhead = Date.parse(real.outputs[0].url_expires_at) - REAL_READ_AT;
    expect(Math.abs(realAhead - 24 * 3600_000)).toBeLessThan(1000);
    const urlExpires = Date.parse(job.outputs[0].url_expires_at);
    expect(urlExpires).toBeGreaterThanOrEqual(before + 24 * 3600_000);
    expect(urlExpires).toBeLessThanOrEqual(after + 24 * 3600_000 + 1000);
  });

  it('an output has the real keys, and `job_id` as the recorded release writes it (kept on purpose)', async () => {
    const job = await run({ ...FLOW, 1: { ...FLOW[1], inputs: { ...FLOW[1].inputs, color: 7 } } });
    const recorded = lifecycle.exchanges.get_A_after_success.response.body as Json;
    expect(Object.keys(recorded.outputs[0]).sort()).toContain('job_id');
    expect(Object.keys(job.outputs[0]).sort()).toEqual([...Object.keys(REAL[0]!.outputs[0]), 'job_id'].sort());
  });

  it('outputs_reused as the newest real proxy said: the same workflow twice in a row is true the second time, not after another', async () => {
    const other = { ...FLOW, 1: { ...FLOW[1], inputs: { ...FLOW[1].inputs, batch_size: 6 } }, 3: { ...FLOW[3], inputs: { ...FLOW[3].inputs, filename_prefix: 'wes-long' } } };
    const runs: Json[] = [];
    for (const workflow of [FLOW, FLOW, other, FLOW]) runs.push(await run(workflow));
    expect(REAL.map((job) => job.outputs_reused)).toEqual([false, true, false, false]);
    expect(runs.map((job) => job.outputs_reused)).toEqual(REAL.map((job) => job.outputs_reused));
    // The cached rerun answers the earlier file's name, as the real one did (wes-ref_00008_.png twice).
    const names = (jobs: Json[]) => jobs.slice(0, 2).map((job) => job.outputs[0].name as string);
    expect(new Set(names(REAL)).size).toBe(1);
    expect(new Set(names(runs)).size).toBe(1);
  });

  it('outputs_reused as the recorded release said for sampler jobs: A false; B and C, whose nodes 1-4 were unchanged, true', async () => {
    const { exchanges } = lifecycle as unknown as { exchanges: Record<string, { request: { body?: Json }; response: { body: Json } }> };
    const seen: boolean[] = [];
    for (const name of ['A', 'B', 'C']) {
      const submit = Object.entries(exchanges).find(([key]) => key.startsWith(`submit_${name}_`))![1];
      seen.push((await run(submit.request.body!.workflow as Json)).outputs_reused as boolean);
    }
    const recorded = ['get_A_after_success', 'get_B_final', 'get_C_final'].map((key) => exchanges[key]!.response.body.outputs_reused);
    expect(recorded).toEqual([false, true, true]);
    expect(seen).toEqual(recorded);
  });
});
