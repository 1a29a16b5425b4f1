// Self-hosted as people run it: the job API v2 on a port of its own (the reference server's, 8189
// by default) in front of the engine on the main port; one engine state behind both.
import { describe, expect, it } from 'vitest';
import reference from './reference/v2-proxy.json' with { type: 'json' };
import { imageWorkflow, serverUrl, startFast, useDevServer, waitForJob, type Json } from '../helpers/dev-server.js';

describe('self-hosted with jobsPort: two origins', () => {
  const ctx = useDevServer({ deployment: 'self-hosted', jobsPort: 0 });
  const jobs = () => ctx.server.jobsUrl!;

  it('binds a third listener and reports its URL', () => {
    expect(jobs()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(jobs()).not.toBe(ctx.server.url);
    expect(new URL(jobs()).port).toBe(String(ctx.server.state.options.jobsPort));
  });

  it('serves only the job API v2 on the jobs port: everything else is the recorded plain-text 404', async () => {
    for (const path of ['/api/object_info', '/v1/models', '/api/queue', '/prompt', '/ws']) {
      const res = await fetch(`${jobs()}${path}`);
      expect([path, res.status, res.headers.get('content-type'), await res.text()]).toEqual([
        path,
        reference.plain_404.status,
        reference.plain_404.headers!['Content-Type'],
        reference.plain_404.body_text,
      ]);
      expect(res.headers.get('x-comfy-request-id')).toBeNull();
    }
    const health = await fetch(`${jobs()}/api/v2/health`);
    expect(await health.json()).toEqual({ status: 'healthy', upstream: ctx.server.url });
  });

  it('serves only the engine on the main port', async () => {
    expect((await fetch(`${ctx.server.url}/api/object_info`)).status).toBe(200);
    for (const path of ['/api/v2/health', '/api/v2/jobs', '/v1/models']) {
      const res = await fetch(`${ctx.server.url}${path}`);
      // The engine's web server: its static route's empty 404 (recordings/engine-http.json).
      expect([path, res.status, await res.text()]).toEqual([path, 404, '']);
    }
  });

  it('runs a job submitted on the jobs port on the engine: links on the jobs origin, the prompt in the engine\'s history', async () => {
    const res = await fetch(`${jobs()}/api/v2/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflow: imageWorkflow({ steps: 1, prefix: 'two-origins' }) }),
    });
    expect(res.status).toBe(201);
    const job = (await res.json()) as Json;
    expect(job.urls.self).toBe(`${jobs()}/api/v2/jobs/${job.id}`);
    const done = await waitForJob(ctx.server, job.urls.self, ['succeeded']);
    expect(done.outputs[0].url.startsWith(`${jobs()}/api/v2/assets/`)).toBe(true);
    const history = (await (await fetch(`${ctx.server.url}/history/${job.id}`)).json()) as Json;
    expect(history[job.id].status.status_str).toBe('success');
    const name = done.outputs[0].name as string;
    const view = await fetch(`${ctx.server.url}/view?filename=${encodeURIComponent(name)}&subfolder=&type=output`);
    const content = await fetch(serverUrl(ctx.server, done.outputs[0].url));
    expect(Buffer.from(await view.arrayBuffer())).toEqual(Buffer.from(await content.arrayBuffer()));
  });
});

describe('without jobsPort', () => {
  it('keeps every family on one origin and reports no jobs URL', async () => {
    const server = await startFast({ deployment: 'self-hosted' });
    try {
      expect(server.jobsUrl).toBeUndefined();
      expect((await fetch(`${server.url}/api/v2/health`)).status).toBe(200);
      expect((await fetch(`${server.url}/api/object_info`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('ignores jobsPort on the hosted deployments', async () => {
    const server = await startFast({ jobsPort: 0 });
    try {
      expect(server.jobsUrl).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
