// Logs in every published form (serverless: the logs operation as JSON or text, 204, `job.logs`
// on a finished job read with GET only) and the workflow sub-resource (`{workflow, format: "api"}`,
// never extra_data, 404 as the job).
import { describe, expect, it } from 'vitest';
import reference from './reference/v2-proxy.json' with { type: 'json' };
import { getJson, imageWorkflow, postJson, startFast, submitJob, useDevServer, v2Auth, waitForJob, type Json } from '../helpers/dev-server.js';

const prefix = '/deployment/dev-deployment';

describe('logs on serverless (JSON, the later published revision, by default)', () => {
  const ctx = useDevServer({ deployment: 'serverless' });
  const logsOf = (link: string) => fetch(new URL(link, ctx.server.url), { headers: v2Auth(ctx.server) });

  it('answers {text, truncated, captured_at} once the job has finished, 204 before and when nothing was printed', async () => {
    const job = (await submitJob(ctx.server, imageWorkflow({ steps: 100 }), { prefix })).body;
    await waitForJob(ctx.server, job.urls.self, ['running']);
    const early = await logsOf(job.urls.logs);
    expect([early.status, await early.text()]).toEqual([204, '']);
    const done = await waitForJob(ctx.server, job.urls.self, ['succeeded']);
    const res = await logsOf(job.urls.logs);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
    const logs = (await res.json()) as Json;
    expect(Object.keys(logs).sort()).toEqual(['captured_at', 'text', 'truncated']);
    expect(logs).toMatchObject({ truncated: false, captured_at: done.completed_at });
    expect(logs.text).toMatch(/Prompt executed in/);
    expect(logs.text.endsWith('\n')).toBe(true);
    ctx.server.state.engine.get(job.id)!.logs.length = 0;
    expect((await logsOf(job.urls.logs)).status).toBe(204);
  });

  it('carries `logs` on a finished job read with GET, and never on the submit or cancel answers or an unfinished job', async () => {
    const submitted = await submitJob(ctx.server, imageWorkflow({ steps: 150 }), { prefix });
    expect(submitted.body).not.toHaveProperty('logs');
    const running = await waitForJob(ctx.server, submitted.body.urls.self, ['running']);
    expect(running).not.toHaveProperty('logs');
    const canceled = await postJson(ctx.server, submitted.body.urls.cancel, {});
    expect(canceled.body).not.toHaveProperty('logs');
    const done = await waitForJob(ctx.server, submitted.body.urls.self, ['canceled']);
    expect(done.logs).toMatchObject({ truncated: false, captured_at: done.completed_at });
    expect(done.logs.text).toMatch(/Processing interrupted/);
  });
});

describe('logs on serverless as text/plain (logsFormat: text, the interface document\'s form)', () => {
  it('answers the lines so far as text, or 204 when the job printed nothing', async () => {
    const server = await startFast({ deployment: 'serverless', logsFormat: 'text' });
    try {
      const job = (await submitJob(server, imageWorkflow({ steps: 2 }), { prefix })).body;
      await waitForJob(server, job.urls.self, ['succeeded']);
      const logs = await fetch(new URL(job.urls.logs, server.url), { headers: v2Auth(server) });
      expect([logs.status, logs.headers.get('content-type')]).toEqual([200, 'text/plain; charset=utf-8']);
      expect(await logs.text()).toMatch(/Prompt executed in/);
      server.state.engine.get(job.id)!.logs.length = 0;
      expect((await fetch(new URL(job.urls.logs, server.url), { headers: v2Auth(server) })).status).toBe(204);
    } finally {
      await server.close();
    }
  });
});

describe('no logs elsewhere', () => {
  for (const deployment of ['cloud', 'self-hosted'] as const) {
    it(`has no logs link, route or field on ${deployment}`, async () => {
      const server = await startFast({ deployment });
      try {
        const job = (await submitJob(server, imageWorkflow({ steps: 1 }))).body;
        const done = await waitForJob(server, job.urls.self, ['succeeded']);
        expect(done.urls).not.toHaveProperty('logs');
        expect(done).not.toHaveProperty('logs');
        const logs = await getJson(server, `/api/v2/jobs/${job.id}/logs`);
        expect(logs.status).toBe(404);
        // The reference server's own routing 404 is plain text, as recorded.
        if (deployment === 'self-hosted') expect(logs.text).toBe('404: Not Found');
      } finally {
        await server.close();
      }
    });
  }
});

describe('GET /api/v2/jobs/{id}/workflow', () => {
  const ctx = useDevServer();

  it('answers the executed graph as {workflow, format: "api"}, without extra_data', async () => {
    const workflow = imageWorkflow({ steps: 1 });
    const job = (await submitJob(ctx.server, workflow, { extra_data: { api_key_comfy_org: 'secret-key' } })).body;
    const res = await getJson(ctx.server, `/api/v2/jobs/${job.id}/workflow`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(reference.workflow.body!).sort());
    expect(res.body).toEqual({ workflow, format: 'api' });
    expect(JSON.stringify(res.body)).not.toContain('secret-key');
  });

  it('404s as the job does: unknown, or past its retention', async () => {
    expect((await getJson(ctx.server, '/api/v2/jobs/00000000-0000-0000-0000-000000000000/workflow')).status).toBe(404);
    const job = (await submitJob(ctx.server, imageWorkflow({ steps: 1 }))).body;
    await waitForJob(ctx.server, job.urls.self, ['succeeded']);
    ctx.server.state.engine.get(job.id)!.expires_at = new Date(Date.now() - 1).toISOString();
    expect((await getJson(ctx.server, job.urls.self)).status).toBe(404);
    const gone = await getJson(ctx.server, `/api/v2/jobs/${job.id}/workflow`);
    expect([gone.status, gone.body.error.code]).toEqual([404, 'job_not_found']); // the cloud surface's entity code
  });

  it('404s on serverless for another deployment\'s prefix', async () => {
    const server = await startFast({ deployment: 'serverless' });
    try {
      const job = (await submitJob(server, imageWorkflow({ steps: 1 }), { prefix })).body;
      expect((await getJson(server, `${prefix}/api/v2/jobs/${job.id}/workflow`)).status).toBe(200);
      expect((await getJson(server, `/deployment/other/api/v2/jobs/${job.id}/workflow`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
