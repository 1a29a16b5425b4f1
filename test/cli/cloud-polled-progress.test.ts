// Comfy Cloud polls a job under way with `progress: null` (../shared/observations/
// job-api-v2-deployments.md): `jobs get` reads it as running without a crash, `jobs watch
// --no-events` follows it to the end on polls alone, and a watch on the stream shows the stream's
// progress. Against the in-process dev-server's cloud surface, which polls no progress either.
import { describe, expect, it } from 'vitest';
import { getJson, imageWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import type { Job } from '../../src/protocol/jobs.js';
import { ndjson, wesAgainst } from './jobs-env.js';

// Each test runs a job of its own, 1.5 s long: side by side, on three slots.
describe.concurrent('a Comfy Cloud job polled with progress null', () => {
  const ctx = useDevServer({ stepMs: 10, slots: 3 });
  const wes = wesAgainst(() => ctx.server);
  const running = async (steps: number) => {
    const job = (await submitJob(ctx.server, imageWorkflow({ steps }))).body;
    await waitForJob(ctx.server, job.urls.self, ['running']);
    expect((await getJson(ctx.server, job.urls.self)).body.progress).toBeNull();
    return job.id as string;
  };

  it('jobs get shows it running, in JSON and for people', async () => {
    const id = await running(150);
    const json = await wes(['jobs', 'get', id, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const job = JSON.parse(json.stdout) as Job;
    expect([job.status, job.progress]).toEqual(['running', null]);
    const human = await wes(['jobs', 'get', id]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^status\s+running$/m);
    await wes(['jobs', 'cancel', id]);
  });

  it('jobs watch --no-events follows it to the end on polls alone', async () => {
    const id = await running(150);
    const res = await wes(['jobs', 'watch', id, '--no-events', '--json', '--interval', '0.05']);
    expect(res.code, res.stderr).toBe(0);
    const jobs = ndjson(res.stdout) as Job[];
    const under = jobs.filter((j) => j.status === 'running');
    expect(under.length).toBeGreaterThan(0);
    for (const job of under) expect(job.progress).toBeNull();
    expect(jobs.at(-1)!.status).toBe('succeeded');
  });

  it('jobs watch on the event stream shows the stream\'s progress', async () => {
    const id = await running(150);
    const res = await wes(['jobs', 'watch', id, '--json', '--interval', '0.05']);
    expect(res.code, res.stderr).toBe(0);
    const jobs = ndjson(res.stdout) as Job[];
    const steps = jobs.filter((j) => j.status === 'running' && j.progress?.current_node_class === 'Sample').map((j) => j.progress!.step);
    expect(steps.length).toBeGreaterThan(1);
    expect(jobs.at(-1)!.status).toBe('succeeded');
  });
});
