import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startFast, useDevServer, getJson, submitJob, imageWorkflow, v2Auth } from '../helpers/dev-server.js';

describe('dev-server core: cloud deployment', () => {
  const ctx = useDevServer({ deployment: 'cloud' });

  it('refuses the jobs API without a bearer key, with a wrong one, and with a JWT', async () => {
    const url = `${ctx.server.url}/api/v2/jobs/some-id`;
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: 'Bearer aaa.bbb.ccc' }] as Record<string, string>[]) {
      const res = await fetch(url, { headers });
      expect(res.status).toBe(401);
      expect(((await res.json()) as any).error.code).toBe('unauthorized');
    }
    const jwt = (await (await fetch(url, { headers: { authorization: 'Bearer aaa.bbb.ccc' } })).json()) as any;
    expect(jwt.error.message).toMatch(/JWT/);
  });

  it('answers 403 forbidden for a credential that is not entitled', async () => {
    const res = await fetch(`${ctx.server.url}/api/v2/jobs/x`, { headers: { authorization: 'Bearer wes-dev-forbidden' } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error.code).toBe('forbidden');
  });

  it('needs X-API-Key on v1 REST routes', async () => {
    const res = await fetch(`${ctx.server.url}/api/queue`);
    expect(res.status).toBe(401);
    const ok = await fetch(`${ctx.server.url}/api/queue`, { headers: { 'x-api-key': ctx.server.apiKey! } });
    expect(ok.status).not.toBe(401);
  });

  it('puts X-Comfy-Request-Id on every response, unique per request', async () => {
    const a = await fetch(`${ctx.server.url}/api/v2/jobs/x`);
    const b = await fetch(`${ctx.server.url}/nowhere`);
    const c = await fetch(`${ctx.server.url}/api/v2/jobs/x`, { headers: v2Auth(ctx.server) });
    const ids = [a, b, c].map((r) => r.headers.get('x-comfy-request-id'));
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(3);
  });

  it('answers 404 in the shape of the surface the path belongs to', async () => {
    const v2 = await getJson(ctx.server, '/api/v2/nothing/here');
    expect(v2.status).toBe(404);
    expect(v2.body.error.code).toBe('not_found');
    const router = await fetch(`${ctx.server.url}/v1/unknown-route/x/y/z`, { headers: v2Auth(ctx.server) });
    expect(router.status).toBe(404);
    expect(router.headers.get('x-comfy-error-type')).toBeTruthy();
    const v1 = await fetch(`${ctx.server.url}/somewhere-else`);
    expect(v1.status).toBe(404);
    expect(((await v1.json()) as any).error.type).toBe('not_found');
  });

  it('maps body errors to 400, 415 and 413 envelopes', async () => {
    const post = (body: string, type: string) =>
      fetch(`${ctx.server.url}/api/v2/jobs`, { method: 'POST', headers: { ...v2Auth(ctx.server), 'content-type': type }, body });
    const bad = await post('{nope', 'application/json');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.code).toBe('invalid_request');
    expect((await post('{}', 'text/plain')).status).toBe(415);
  });

  it('answers 500 upstream_error when a handler throws, and keeps serving', async () => {
    const engine = ctx.server.state.engine;
    const original = engine.get.bind(engine);
    engine.get = () => {
      throw new Error('backing store down');
    };
    try {
      const res = await getJson(ctx.server, '/api/v2/jobs/whatever');
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe('upstream_error');
      expect(res.body.error.message).not.toMatch(/backing store/);
    } finally {
      engine.get = original;
    }
    expect((await getJson(ctx.server, '/api/v2/jobs/whatever')).status).toBe(404);
  });

  it('has no logs link and no logs route off the serverless deployment', async () => {
    const { body } = await submitJob(ctx.server, imageWorkflow({ steps: 1 }));
    expect(body.urls.logs).toBeUndefined();
    expect(body.deployment_id).toBeUndefined();
    expect((await getJson(ctx.server, `${body.urls.self}/logs`)).status).toBe(404);
  });
});

describe('dev-server core: request limits and shutdown', () => {
  it('answers 413 above maxBodyBytes', async () => {
    const server = await startFast({ maxBodyBytes: 1000 });
    try {
      const res = await fetch(`${server.url}/api/v2/jobs`, {
        method: 'POST',
        headers: { ...v2Auth(server), 'content-type': 'application/json' },
        body: JSON.stringify({ workflow: { pad: 'x'.repeat(5000) } }),
      });
      expect(res.status).toBe(413);
    } finally {
      await server.close();
    }
  });

  it('closes quickly with an open event stream and keep-alive sockets', async () => {
    const server = await startFast({ stepMs: 1000 });
    const { body } = await submitJob(server, imageWorkflow({ steps: 50 }));
    const stream = await fetch(`${server.url}${body.urls.events}`, { headers: v2Auth(server) });
    expect(stream.status).toBe(200);
    const reading = stream.text().catch((err: Error) => err);
    // The job runs for 50 s: a close that waited for the stream or the sockets would not return in the test's time.
    await server.close();
    await reading; // the stream ended (or errored) instead of hanging
    await expect(fetch(`${server.url}/api/v2/jobs/x`)).rejects.toThrow();
  });
});

describe('dev-server core: self-hosted deployment', () => {
  it('is open without a token', async () => {
    const server = await startFast({ deployment: 'self-hosted' });
    try {
      expect(server.apiKey).toBeUndefined();
      const res = await fetch(`${server.url}/api/v2/jobs/x`);
      expect(res.status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('checks the static token when one is given', async () => {
    const server = await startFast({ deployment: 'self-hosted', apiKey: 'static-token' });
    try {
      expect((await fetch(`${server.url}/api/v2/jobs/x`)).status).toBe(401);
      expect((await fetch(`${server.url}/api/v2/jobs/x`, { headers: { authorization: 'Bearer static-token' } })).status).toBe(404);
      expect((await fetch(`${server.url}/api/queue`, { headers: { 'x-api-key': 'static-token' } })).status).not.toBe(401);
    } finally {
      await server.close();
    }
  });
});

describe('dev-server core: serverless mount prefix', () => {
  const ctx = useDevServer({ deployment: 'serverless', deploymentId: 'dep-one', releaseId: 'rel-7' });

  it('serves v2 only under /deployment/{id}, and its links carry the prefix', async () => {
    expect((await submitJob(ctx.server, imageWorkflow())).status).toBe(404);
    expect((await submitJob(ctx.server, imageWorkflow(), { prefix: '/deployment/other' })).status).toBe(404);
    const { status, body } = await submitJob(ctx.server, imageWorkflow({ steps: 1 }), { prefix: '/deployment/dep-one' });
    expect(status).toBe(201);
    expect(body.urls.self).toBe(`/deployment/dep-one/api/v2/jobs/${body.id}`);
    expect(body.urls.events).toBe(`/deployment/dep-one/api/v2/jobs/${body.id}/events`);
    expect(body.urls.cancel).toBe(`/deployment/dep-one/api/v2/jobs/${body.id}/cancel`);
    expect(body.urls.logs).toBe(`/deployment/dep-one/api/v2/jobs/${body.id}/logs`);
    expect(body.deployment_id).toBe('dep-one');
    expect(body.release_id).toBe('rel-7');
    // the same job is not reachable outside its deployment
    expect((await getJson(ctx.server, `/api/v2/jobs/${body.id}`)).status).toBe(404);
  });

  it('serves v1 and the router both at the root and under the prefix', async () => {
    for (const prefix of ['', '/deployment/dep-one']) {
      const res = await fetch(`${ctx.server.url}${prefix}/api/queue`, { headers: { 'x-api-key': ctx.server.apiKey! } });
      expect(res.status).toBe(200);
    }
  });
});

describe('dev-server core: raw HTTP behaviour', () => {
  const ctx = useDevServer();
  it('survives a malformed request target', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${ctx.server.url}/api/v2/jobs/%E0%A4%A`, { headers: v2Auth(ctx.server) }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(404);
  });
});
