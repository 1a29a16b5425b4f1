// Regression tests for the dev-server review findings: malformed requests that used to kill the
// process, uploads that crashed or leaked, timers that outlived close(), prototype keys, and
// answers the interface does not list.
import { readdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { FileBlobStore } from '../../src/dev-server/assets/blob-store.js';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { routerState, setRouterDeadline } from '../../src/dev-server/models/index.js';
import { getJson, postJson, startFast, submitJob, useDevServer, v1Auth, v2Auth } from '../helpers/dev-server.js';
import { call } from './models-http.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes fetch would never send and reads the answer until the server closes. */
function rawRequest(url: string, text: string | Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const whole = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = whole.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

const BAD_TARGET = 'http://[/x';
const UPGRADE = 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';

async function stillServing(server: DevServerHandle): Promise<void> {
  expect((await getJson(server, '/api/v2/jobs/00000000-0000-0000-0000-000000000000')).status).toBe(404);
}

async function incomingFiles(server: DevServerHandle): Promise<string[]> {
  return (await readdir((server.state.blobs as FileBlobStore).dir)).filter((name) => name.startsWith('incoming-'));
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function multipartHead(field: string, boundary: string, authHeader: string, path: string, declaredLength: number): string {
  return `POST ${path} HTTP/1.1\r\nHost: x\r\n${authHeader}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
    `Content-Length: ${declaredLength}\r\n\r\n--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\n\r\n`;
}

describe('dev-server review fixes (cloud)', () => {
  const ctx = useDevServer({ faults: true });
  const auth = (): string => `Authorization: Bearer ${ctx.server.apiKey}`;

  it('#1 a bad Host header or request target answers 400 instead of killing the process', async () => {
    const badHost = await rawRequest(ctx.server.url, 'GET /api/v2/jobs/x HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n');
    expect(badHost.status).toBeGreaterThanOrEqual(400);
    expect(badHost.status).toBeLessThan(500);
    const badTarget = await rawRequest(ctx.server.url, `GET ${BAD_TARGET} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(badTarget.status).toBe(400);
    expect(badTarget.headers['x-service-request-id']).toMatch(/^req_/);
    await stillServing(ctx.server);
  });

  it('#2 a bad request target on the signed listener answers 400', async () => {
    const answer = await rawRequest(ctx.server.signedOrigin, `GET ${BAD_TARGET} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'invalid_request' } });
    expect((await fetch(`${ctx.server.signedOrigin}/nothing`)).status).toBe(403);
  });

  it('#3 #12 a WebSocket upgrade with a bad target is refused with 400; refusals carry a request id', async () => {
    const bad = await rawRequest(ctx.server.url, `GET http://[/ws HTTP/1.1\r\nHost: x\r\n${UPGRADE}\r\n`);
    expect(bad.status).toBe(400);
    expect(bad.headers['x-service-request-id']).toMatch(/^req_/);
    const unauthorized = await rawRequest(ctx.server.url, `GET /ws HTTP/1.1\r\nHost: x\r\n${UPGRADE}\r\n`);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers['x-service-request-id']).toMatch(/^req_/);
    await stillServing(ctx.server);
  });

  it('#5 a multipart body that ends inside the file part is refused on both upload routes', async () => {
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
    await until(async () => (await incomingFiles(ctx.server)).length === 0, 'temp files to go');
  });

  it.each([
    ['v2', 'file', '/api/v2/assets'],
    ['v1', 'image', '/api/upload/image'],
  ])('#6 an aborted %s upload closes and removes its temp file', async (_surface, field, path) => {
    const header = field === 'file' ? auth() : `X-API-Key: ${ctx.server.apiKey}`;
    const { hostname, port } = new URL(ctx.server.url);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(multipartHead(field, 'zz', header, path, 1_000_000));
    socket.write(Buffer.alloc(64 * 1024, 7));
    await until(async () => (await incomingFiles(ctx.server)).length > 0, 'the upload to start');
    socket.destroy();
    await until(async () => (await incomingFiles(ctx.server)).length === 0, 'the temp file to be removed');
    await stillServing(ctx.server);
  });

  it('#8 deeply nested JSON is a 400 in the surface shape, not a stack overflow', async () => {
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

  it('#9 prototype names are plain node ids and class names', async () => {
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

  it('#10 a bad limit or cursor on GET /v1/models is 400 RouterErrorResponse invalid_input', async () => {
    for (const query of ['?limit=ten', '?cursor=nonsense', '?cursor=c1.AAAA~AAAA']) {
      const answer = await call(ctx.server.url, `/v1/models${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.headers.get('x-service-error-type')).toBe('invalid_input');
      expect(answer.json).toEqual({ detail: expect.any(String), error_type: 'invalid_input' });
    }
  });

  it('#11 a malformed model id is 404 on the GET routes and 422 on the call route', async () => {
    for (const path of ['/v1/models/Bad_Provider/echo', '/v1/models/dev/echo..x/openapi.json']) {
      const answer = await call(ctx.server.url, path);
      expect(answer.status, path).toBe(404);
      expect(answer.json.error_type).toBe('model_not_found');
      expect(answer.headers.get('x-service-error-type')).toBe('model_not_found');
    }
    const post = await call(ctx.server.url, '/v1/models/Bad_Provider/echo', { body: {} });
    expect(post.status).toBe(422);
  });

  it('#13 file_path with `.`, `..` or empty segments is 422 invalid_request', async () => {
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

  it('#14 a fault with a header name or value Node refuses is a 400 at setup', async () => {
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

describe('dev-server review fixes (serverless and close)', () => {
  const ctx = useDevServer({ surface: 'serverless', deploymentId: 'demo' });

  it('#4 an undecodable deployment id in the mount prefix is 404', async () => {
    const bad = await getJson(ctx.server, '/deployment/%E0/api/v2/jobs/x');
    expect(bad.status).toBe(404);
    expect(bad.body.error.code).toBe('not_found');
    const good = await getJson(ctx.server, '/deployment/demo/api/v2/jobs/00000000-0000-0000-0000-000000000000');
    expect(good.status).toBe(404);
    expect(good.body.error.code).toBe('not_found');
  });

  it('#7 close() ends a pending dev/slow call instead of leaving its timer running', async () => {
    const server = await startFast();
    setRouterDeadline(server.state, 50);
    const answer = await call(server.url, '/v1/models/dev/slow', { body: { prompt: 'p', duration_ms: 60_000, cost_cents: 1 } });
    expect(answer.status).toBe(504);
    const usage = routerState(server.state).usage;
    expect([...usage.values()].reduce((n, u) => n + u.inFlight, 0)).toBe(1);
    const timersBefore = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    await server.close();
    await until(async () => [...usage.values()].reduce((n, u) => n + u.inFlight, 0) === 0, 'the slow call to end');
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBeLessThan(timersBefore);
  });
});
