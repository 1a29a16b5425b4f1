// Requests no client should send (bad Host or target, truncated multipart, JSON nested past any
// stack, prototype names, bad ids, paths and cursors) are refused with a 4xx in the answering API
// family's shape, and the dev-server goes on serving.
import { describe, expect, it } from 'vitest';
import { getJson, postJson, submitJob, useDevServer, v1Auth, v2Auth } from '../helpers/dev-server.js';
import { until } from '../helpers/until.js';
import { call } from './models-http.js';
import { BAD_TARGET, incomingFiles, rawRequest, stillServing, UPGRADE } from './raw-requests.js';

describe('dev-server (cloud): a malformed request is a 4xx and the server keeps serving', () => {
  const ctx = useDevServer({ faults: true });

  it('a bad Host header or request target answers 400 instead of killing the process', async () => {
    const badHost = await rawRequest(ctx.server.url, 'GET /api/v2/jobs/x HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n');
    expect(badHost.status).toBeGreaterThanOrEqual(400);
    expect(badHost.status).toBeLessThan(500);
    const badTarget = await rawRequest(ctx.server.url, `GET ${BAD_TARGET} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(badTarget.status).toBe(400);
    expect(badTarget.headers['x-comfy-request-id']).toMatch(/^req_/);
    await stillServing(ctx.server);
  });

  it('a bad request target on the signed listener answers 400', async () => {
    const answer = await rawRequest(ctx.server.signedOrigin, `GET ${BAD_TARGET} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'invalid_request' } });
    expect((await fetch(`${ctx.server.signedOrigin}/nothing`)).status).toBe(403);
  });

  it('a WebSocket upgrade with a bad target is refused with 400; refusals carry a request id', async () => {
    const bad = await rawRequest(ctx.server.url, `GET http://[/ws HTTP/1.1\r\nHost: x\r\n${UPGRADE}\r\n`);
    expect(bad.status).toBe(400);
    expect(bad.headers['x-comfy-request-id']).toMatch(/^req_/);
    const unauthorized = await rawRequest(ctx.server.url, `GET /ws HTTP/1.1\r\nHost: x\r\n${UPGRADE}\r\n`);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers['x-comfy-request-id']).toMatch(/^req_/);
    await stillServing(ctx.server);
  });

  it('a multipart body that ends inside the file part is refused on both upload routes, leaving no temp file', async () => {
    const body = '--zz\r\nContent-Disposition: form-data; name="FIELD"; filename="a"\r\n\r\nabc';
    const v2 = await fetch(`${ctx.server.url}/api/v2/assets`, {
      method: 'POST',
      headers: { ...v2Auth(ctx.server), 'content-type': 'multipart/form-data; boundary=zz' },
      body: body.replace('FIELD', 'file'),
    });
    // The interface puts a malformed asset upload in 422 invalid_request.
    expect(v2.status).toBe(422);
    expect(((await v2.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    const v1 = await fetch(`${ctx.server.url}/api/upload/image`, {
      method: 'POST',
      headers: { ...v1Auth(ctx.server), 'content-type': 'multipart/form-data; boundary=zz' },
      body: body.replace('FIELD', 'image'),
    });
    expect(v1.status).toBe(400);
    await stillServing(ctx.server);
    await until(async () => (await incomingFiles(ctx.server)).length === 0, 'temp files to go', 3000);
  });

  it('deeply nested JSON is a 400 in the answering API family\'s error shape, not a stack overflow', async () => {
    const depth = 200_000;
    const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const v2 = await fetch(`${ctx.server.url}/api/v2/jobs`, {
      method: 'POST',
      headers: { ...v2Auth(ctx.server), 'content-type': 'application/json', 'idempotency-key': 'deep-1' },
      body: `{"workflow":${deep}}`,
    });
    expect(v2.status).toBe(400);
    expect(((await v2.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    const v1 = await fetch(`${ctx.server.url}/api/prompt`, {
      method: 'POST',
      headers: { ...v1Auth(ctx.server), 'content-type': 'application/json' },
      body: `{"prompt":${deep}}`,
    });
    expect(v1.status).toBe(400);
    const router = await call(ctx.server.url, '/v1/models/dev/echo', { body: `{"prompt":${deep}}` });
    expect(router.status).toBe(422);
    expect(router.json.detail).toEqual([expect.objectContaining({ loc: ['body'], type: 'json_invalid' })]);
    // Nesting under the cap still works.
    const shallow = `${'['.repeat(100)}${']'.repeat(100)}`;
    const fine = await postJson(ctx.server, '/api/v2/jobs', { workflow: { '1': { class_type: 'Nope', inputs: { x: JSON.parse(shallow) } } } });
    expect(fine.status).toBe(422);
  });

  it('prototype names (__proto__, constructor, toString) are plain node ids and class names', async () => {
    const toStringClass = await submitJob(ctx.server, { '1': { class_type: 'toString', inputs: {} } });
    expect(toStringClass.status).toBe(422);
    expect(JSON.stringify(toStringClass.body)).toContain('unknown_node_class');

    const protoNode = await submitJob(ctx.server, JSON.parse('{"__proto__": {"class_type": "Nope", "inputs": {}}}'));
    expect(protoNode.status).toBe(422);
    expect(Object.keys(protoNode.body.error.details.node_errors)).toEqual(['__proto__']);

    const constructorLink = await submitJob(ctx.server, {
      '1': { class_type: 'SaveImage', inputs: { images: ['constructor', 0], filename_prefix: 'x' } },
    });
    expect(constructorLink.status).toBe(422);
    expect(JSON.stringify(constructorLink.body)).toContain('bad_linked_input');
  });

  it('a bad limit or cursor on GET /v1/models is 400 invalid_input', async () => {
    for (const query of ['?limit=ten', '?cursor=nonsense', '?cursor=c1.AAAA~AAAA']) {
      const answer = await call(ctx.server.url, `/v1/models${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.headers.get('x-comfy-error-type')).toBe('invalid_input');
      expect(answer.json).toEqual({ detail: expect.any(String), error_type: 'invalid_input' });
    }
  });

  it('a malformed model id is 404 on the GET routes and 422 on the call route', async () => {
    for (const path of ['/v1/models/Bad_Provider/echo', '/v1/models/dev/echo..x/openapi.json']) {
      const answer = await call(ctx.server.url, path);
      expect(answer.status, path).toBe(404);
      expect(answer.json.error_type).toBe('model_not_found');
      expect(answer.headers.get('x-comfy-error-type')).toBe('model_not_found');
    }
    const post = await call(ctx.server.url, '/v1/models/Bad_Provider/echo', { body: {} });
    expect(post.status).toBe(422);
  });

  it('an asset file_path with `.`, `..` or empty segments is 422 invalid_request', async () => {
    for (const filePath of ['a/.', 'a/', './a', 'a//b', 'a/../b']) {
      const answer = await postJson(ctx.server, '/api/v2/assets/from-hash', { hash: `blake3:${'0'.repeat(64)}`, file_path: filePath });
      expect(answer.status, filePath).toBe(422);
      expect(answer.body.error.code).toBe('invalid_request');
    }
    const form = new FormData();
    form.append('file_path', 'inputs/.');
    form.append('file', new Blob([Buffer.from('x')]), 'x.bin');
    const upload = await fetch(`${ctx.server.url}/api/v2/assets`, { method: 'POST', headers: v2Auth(ctx.server), body: form });
    expect(upload.status).toBe(422);
  });

  it('a scripted fault with a header name or value Node refuses is a 400 at setup', async () => {
    for (const headers of [{ 'bad name': 'x' }, { 'x-ok': 'a\nb' }]) {
      const answer = await fetch(`${ctx.server.url}/__dev/faults`, {
        method: 'POST',
        body: JSON.stringify({ match: 'GET /api/v2/jobs', action: 'status', status: 503, headers }),
      });
      expect(answer.status).toBe(400);
    }
    const table = (await (await fetch(`${ctx.server.url}/__dev/faults`)).json()) as { pending: unknown[] };
    expect(table.pending).toEqual([]);
  });
});

describe('dev-server (serverless): a malformed mount prefix', () => {
  const ctx = useDevServer({ deployment: 'serverless', deploymentId: 'demo' });

  it('an undecodable deployment id in the mount prefix is 404', async () => {
    const bad = await getJson(ctx.server, '/deployment/%E0/api/v2/jobs/x');
    expect(bad.status).toBe(404);
    expect(bad.body.error.code).toBe('not_found');
    const good = await getJson(ctx.server, '/deployment/demo/api/v2/jobs/00000000-0000-0000-0000-000000000000');
    expect(good.status).toBe(404);
    expect(good.body.error.code).toBe('not_found');
  });
});
