// The HTTP layer against real servers: retries, idempotency, credentials per origin, signed
// redirects, link resolution and error decoding.
import { afterAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { ApiError, ExitCode, WesError } from '../../src/errors.js';
import { json, startTestServer, type TestServer } from '../helpers/http-server.js';

// Each test has servers of its own, so the tests run side by side (describe.concurrent): most of
// the file is waiting out retries and Retry-After. The servers close when the file ends.
const servers: TestServer[] = [];
async function server(handler: Parameters<typeof startTestServer>[0]) {
  const s = await startTestServer(handler);
  servers.push(s);
  return s;
}
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function client(base: string, extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) {
  return new HttpClient({ baseUrl: base, routerUrl: base, apiKey: 'key-A-123456789', routerToken: 'router-tok-987654321', retries: 3, ...extra });
}

describe.concurrent('retries', () => {
  // Where the wait itself is not the subject the answers carry no Retry-After: wes waits at least
  // 1 s for one (even "0"), its backoff only 150-300 ms, then 300-600 ms.
  it('waits Retry-After seconds after a 429 before repeating a GET', async () => {
    const s = await server((_req, res, n) => (n === 1 ? json(res, 429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': '1' }) : json(res, 200, { ok: true })));
    const res = await client(s.url).json<{ ok: boolean }>({ family: 'jobs', url: '/api/v2/jobs/x' });
    expect(res.body.ok).toBe(true);
    expect(s.requests).toHaveLength(2);
    expect(s.requests[1]!.at - s.requests[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it('never repeats a POST without an idempotency key', async () => {
    const s = await server((_req, res) => json(res, 503, { error: { code: 'upstream_error', message: 'down' } }));
    const err = await client(s.url).json({ family: 'legacy', url: '/api/prompt', json: { prompt: {} } }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(s.requests).toHaveLength(1);
  });

  it('repeats a keyed router POST with the same key every time (the router collects by key)', async () => {
    const s = await server((_req, res, n) => (n < 3 ? json(res, 503, { detail: 'down', error_type: 'service_unavailable' }) : json(res, 200, { id: 'j1' })));
    const res = await client(s.url).json<{ id: string }>({ family: 'models', url: '/v1/models/a/b', json: {}, idempotencyKey: 'k-1' });
    expect(res.status).toBe(200);
    expect(s.requests.map((r) => r.headers['idempotency-key'])).toEqual(['k-1', 'k-1', 'k-1']);
  });

  it('a keyed job API POST is single use: a 429 is sent again with the same key, a 5xx or a reset never', async () => {
    const throttled = await server((_req, res, n) => (n < 3 ? json(res, 429, { error: { code: 'queue_full', message: 'full' } }) : json(res, 201, { id: 'j1' })));
    const res = await client(throttled.url).json<{ id: string }>({ family: 'jobs', url: '/api/v2/jobs', json: { workflow: {} }, idempotencyKey: 'k-1' });
    expect(res.status).toBe(201);
    expect(throttled.requests.map((r) => r.headers['idempotency-key'])).toEqual(['k-1', 'k-1', 'k-1']);

    const failing = await server((_req, res) => json(res, 503, { error: { code: 'upstream_error', message: 'down' } }, { 'retry-after': '0' }));
    const err = (await client(failing.url).json({ family: 'jobs', url: '/api/v2/jobs', json: { workflow: {} }, idempotencyKey: 'k-2' }).catch((e) => e)) as ApiError;
    expect(err.status).toBe(503);
    expect(failing.requests).toHaveLength(1);

    const reset = await server((req) => req.socket.destroy());
    await client(reset.url).json({ family: 'jobs', url: '/api/v2/jobs', json: { workflow: {} }, idempotencyKey: 'k-3' }).catch(() => undefined);
    expect(reset.requests).toHaveLength(1);
  });

  it('gives up after --retries and reports the last error with its exit code', async () => {
    const s = await server((_req, res) => json(res, 429, { error: { code: 'queue_full', message: 'full' } }));
    const err = (await client(s.url, { retries: 2 }).json({ family: 'jobs', url: '/x' }).catch((e) => e)) as ApiError;
    expect(s.requests).toHaveLength(3);
    expect(err.code).toBe('queue_full');
    expect(err.exitCode).toBe(ExitCode.THROTTLED);
  });

  it('retries a read whose connection is reset', async () => {
    const s = await server((req, res, n) => (n === 1 ? req.socket.destroy() : json(res, 200, { ok: 1 })));
    const res = await client(s.url).json<{ ok: number }>({ family: 'jobs', url: '/y' });
    expect(res.body.ok).toBe(1);
    expect(s.requests).toHaveLength(2);
  });
});

describe.concurrent('credentials', () => {
  it('sends each surface its own scheme', async () => {
    const s = await server((_req, res) => json(res, 200, {}));
    const c = client(s.url);
    await c.json({ family: 'jobs', url: '/api/v2/jobs/1' });
    await c.json({ family: 'models', url: '/v1/models' });
    await c.json({ family: 'legacy', url: '/api/queue' });
    expect(s.requests[0]!.headers.authorization).toBe('Bearer key-A-123456789');
    expect(s.requests[1]!.headers.authorization).toBe('Bearer router-tok-987654321');
    expect(s.requests[2]!.headers['x-api-key']).toBe('key-A-123456789');
    expect(s.requests[2]!.headers.authorization).toBeUndefined();
  });

  it('sends no credential to another origin, even for a link of a configured surface', async () => {
    const other = await server((_req, res) => json(res, 200, {}));
    const s = await server((_req, res) => json(res, 200, {}));
    await client(s.url).json({ family: 'jobs', url: new URL('/api/v2/jobs/1', other.url) });
    expect(other.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('follows a redirect to a signed URL with no credential header and no cookie', async () => {
    const signed = await server((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end('PNGDATA'));
    const s = await server((_req, res) => res.writeHead(302, { location: `${signed.url}/signed/abc?sig=1` }).end());
    const c = client(s.url);
    const res = await c.redirectToSigned({ family: 'legacy', url: '/api/view?filename=a.png' }, { cookie: 'x=1' as string });
    const body = Buffer.concat(await res.body.toArray()).toString();
    expect(body).toBe('PNGDATA');
    expect(s.requests[0]!.headers['x-api-key']).toBe('key-A-123456789');
    const hop = signed.requests[0]!.headers;
    expect(hop.authorization).toBeUndefined();
    expect(hop['x-api-key']).toBeUndefined();
    expect(hop.cookie).toBeUndefined();
  });

  it('refuses a redirect from https down to http', () => {
    const c = client('https://api.example.test');
    const target = (c as unknown as { redirectTarget(from: URL, loc: string): URL }).redirectTarget.bind(c);
    expect(() => target(new URL('https://api.example.test/x'), 'http://cdn.example.test/f')).toThrow(/https to http/);
    expect(target(new URL('https://api.example.test/x'), 'https://cdn.example.test/f').origin).toBe('https://cdn.example.test');
  });
});

describe.concurrent('links', () => {
  it('resolves a host-relative link against the response origin, keeping one mount prefix', async () => {
    const s = await server((_req, res) => json(res, 200, { urls: { self: '/deployment/abc/api/v2/jobs/7' } }));
    const c = client(`${'http://127.0.0.1:1'}`);
    const base = `${s.url}/deployment/abc`;
    const c2 = client(base);
    const first = await c2.json<{ urls: { self: string } }>({ family: 'jobs', url: '/api/v2/jobs/7' });
    expect(s.requests[0]!.url).toBe('/deployment/abc/api/v2/jobs/7');
    const next = c2.link(first.body.urls.self, first);
    expect(next.toString()).toBe(`${s.url}/deployment/abc/api/v2/jobs/7`);
    expect(c.target('jobs', '/api/v2/jobs').toString()).toBe('http://127.0.0.1:1/api/v2/jobs');
  });
});

describe.concurrent('error decoding', () => {
  it('decodes the v2 envelope with request id and details', async () => {
    const s = await server((_req, res) =>
      json(res, 422, { error: { code: 'invalid_workflow', message: 'bad', details: { node_errors: { '3': { class_type: 'X', errors: [] } } } } }, { 'x-service-request-id': 'req-9' }),
    );
    const err = (await client(s.url).json({ family: 'jobs', url: '/x' }).catch((e) => e)) as ApiError;
    expect(err).toMatchObject({ code: 'invalid_workflow', status: 422, requestId: 'req-9', exitCode: ExitCode.REFUSED });
    expect((err.details as { node_errors: object }).node_errors).toHaveProperty('3');
  });

  it('treats an unknown router bucket as internal_error and keeps the declared one', async () => {
    const s = await server((_req, res) => json(res, 500, { detail: 'boom', error_type: 'brand_new_bucket' }, { 'x-service-error-type': 'brand_new_bucket' }));
    const err = (await client(s.url, { retries: 0 }).json({ family: 'models', url: '/v1/models' }).catch((e) => e)) as ApiError;
    expect(err.code).toBe('internal_error');
    expect(err.details).toMatchObject({ declared_error_type: 'brand_new_bucket' });
  });

  it('reports a non-JSON success body as an unreadable response (exit 1)', async () => {
    const s = await server((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"trunc'));
    const err = (await client(s.url).json({ family: 'jobs', url: '/x' }).catch((e) => e)) as WesError;
    expect(err.code).toBe('bad_response');
    expect(err.exitCode).toBe(ExitCode.ERROR);
  });

  it('reports a truncated body (Content-Length not met) as a network error after retries', async () => {
    const s = await server((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"a":');
      setTimeout(() => req.socket.destroy(), 5);
    });
    const err = (await client(s.url, { retries: 1 }).json({ family: 'jobs', url: '/x' }).catch((e) => e)) as WesError;
    expect(err.code).toBe('network_error');
    expect(s.requests).toHaveLength(2);
  });
});

describe.concurrent('verbose', () => {
  it('logs requests with credentials redacted', async () => {
    const s = await server((_req, res) => json(res, 200, {}, { 'x-service-request-id': 'rid-1' }));
    const lines: string[] = [];
    await client(s.url, { debug: (l) => lines.push(l) }).json({ family: 'jobs', url: '/api/v2/jobs/1', query: { token: 'tok-secret-1' } });
    const text = lines.join('\n');
    expect(text).toContain('GET');
    expect(text).toContain('rid-1');
    expect(text).not.toContain('key-A-123456789');
    expect(text).not.toContain('tok-secret-1');
  });
});
