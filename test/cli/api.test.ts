// wes api through the binary: the surface and credential follow from the path, fields, headers
// and bodies arrive as given, answers print byte for byte, errors still print their body and
// exit by the table, router pages are walked, and nothing leaves the configured origins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWes } from '../helpers/cli.js';
import { useDevServer } from '../helpers/dev-server.js';
import { json, startTestServer, type RecordedRequest, type TestServer } from '../helpers/http-server.js';

const KEY = 'sk-api-test-0123456789abcdef';
const ROUTER = 'router-jwt-0123456789abcdef';
const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0x0a]);

// Pages of a catalog: an empty page in the middle still says has_more; cursors carry characters
// that must be passed back exactly.
const PAGES: Record<string, { data: unknown[]; has_more: boolean; next_cursor?: string; limit: number }> = {
  '': { data: [{ id: 'a/one' }, { id: 'a/two' }], has_more: true, next_cursor: 'c+1/=', limit: 2 },
  'c+1/=': { data: [], has_more: true, next_cursor: 'c~2.-_', limit: 2 },
  'c~2.-_': { data: [{ id: 'b/three' }], has_more: false, limit: 2 },
};

let server: TestServer;
let dir: string;
let failures = 0;

function last(): RecordedRequest {
  return server.requests[server.requests.length - 1]!;
}

function wes(args: string[], opts: Parameters<typeof runWes>[1] = {}) {
  return runWes(['api', ...args], { ...opts, env: { WES_BASE_URL: `${server.url}/gw/dep-1`, WES_API_KEY: KEY, WES_ROUTER_TOKEN: ROUTER, ...opts.env } });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wes-api-'));
  server = await startTestServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const path = url.pathname.replace(/^\/gw\/dep-1/, '');
    if (path === '/v1/models') {
      const page = PAGES[url.searchParams.get('cursor') ?? ''];
      return page ? json(res, 200, page) : json(res, 400, { error_type: 'invalid_input', detail: 'bad cursor' }, { 'x-service-error-type': 'invalid_input' });
    }
    if (path === '/api/v2/blob') return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(BINARY);
    if (path === '/api/v2/missing') return json(res, 404, { error: { code: 'not_found', message: 'no such thing' } }, { 'x-service-request-id': 'rid-404' });
    if (path === '/api/v2/flaky' && failures++ < 1) return json(res, 429, { error: { code: 'queue_full', message: 'busy' } }, { 'retry-after': '0' });
    if (path === '/api/v2/broken') return json(res, 503, { error: { code: 'upstream_error', message: 'down' } }, { 'retry-after': '0' });
    return json(res, 200, { ok: true, method: req.method });
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('wes api: surfaces and credentials', () => {
  it('sends each surface its own credential scheme, below the base URL prefix', async () => {
    expect((await wes(['GET', '/api/v2/jobs/j1'])).code).toBe(0);
    expect(last().url).toBe('/gw/dep-1/api/v2/jobs/j1');
    expect(last().headers.authorization).toBe(`Bearer ${KEY}`);
    expect(last().headers['x-api-key']).toBeUndefined();

    expect((await wes(['get', 'api/queue'])).code).toBe(0);
    expect(last().url).toBe('/gw/dep-1/api/queue');
    expect(last().headers['x-api-key']).toBe(KEY);
    expect(last().headers.authorization).toBeUndefined();

    expect((await wes(['GET', '/v1/models'])).code).toBe(0);
    expect(last().headers.authorization).toBe(`Bearer ${ROUTER}`);

    expect((await wes(['GET', '/custom/path', '--surface', 'legacy'])).code).toBe(0);
    expect(last().url).toBe('/gw/dep-1/custom/path');
    expect(last().headers['x-api-key']).toBe(KEY);
  });

  it('accepts a full URL on the configured origin and infers the surface below the prefix', async () => {
    expect((await wes(['GET', `${server.url}/gw/dep-1/api/queue`])).code).toBe(0);
    expect(last().headers['x-api-key']).toBe(KEY);
  });

  it('refuses, without sending anything, every path that would leave the configured origins', async () => {
    const before = server.requests.length;
    const targets = ['//evil.test/api/v2/jobs', 'http://evil.test/api/v2/jobs', 'https://127.0.0.1:1/api/queue', 'file:///etc/passwd', '/nowhere'];
    const results = await Promise.all(targets.map((target) => wes(['GET', target])));
    expect(results.map((r) => r.code)).toEqual(targets.map(() => 2));
    expect(server.requests.length).toBe(before);
  });
});

describe('wes api: request parts', () => {
  it('puts -f strings and -F typed values into a JSON body', async () => {
    const file = join(dir, 'note.txt');
    writeFileSync(file, 'from a file');
    const res = await wes(['POST', '/api/v2/things', '-f', 'a=1', '-F', 'b=2', '-F', 'c=true', '-F', 'd=null', '-F', 'e={"x":[1]}', '-F', 'f=plain', '-F', `g=@${file}`, '-f', 'tag[]=x', '-f', 'tag[]=y']);
    expect(res.code).toBe(0);
    expect(last().method).toBe('POST');
    expect(last().headers['content-type']).toBe('application/json');
    expect(JSON.parse(last().body.toString())).toEqual({ a: '1', b: 2, c: true, d: null, e: { x: [1] }, f: 'plain', g: 'from a file', tag: ['x', 'y'] });
  });

  it('puts fields into the query string of a GET', async () => {
    expect((await wes(['GET', '/v1/models?limit=2', '-F', 'provider=acme', '-f', 'q=a b&c'])).code).toBe(0);
    const url = new URL(last().url, 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({ limit: '2', provider: 'acme', q: 'a b&c' });
  });

  it('sends --input bytes unchanged (a file or standard input), with -H headers', async () => {
    const body = Buffer.from('{"prompt":{}}\n\u0000raw');
    const file = join(dir, 'body.bin');
    writeFileSync(file, body);
    expect((await wes(['POST', '/api/prompt', '--input', file, '-H', 'X-Trace: t-1'])).code).toBe(0);
    expect(last().body.equals(body)).toBe(true);
    expect(last().headers['content-type']).toBe('application/json');
    expect(last().headers['x-trace']).toBe('t-1');
    expect((await wes(['PUT', '/api/v2/x', '--input', '-', '-H', 'content-type: text/plain'], { input: 'hello' })).code).toBe(0);
    expect(last().body.toString()).toBe('hello');
    expect(last().headers['content-type']).toBe('text/plain');
  });

  it('a job API POST with an Idempotency-Key header is single use: sent again after a 429 with the same key, never after a 5xx', async () => {
    failures = 0;
    const before = server.requests.length;
    const res = await wes(['POST', '/api/v2/flaky', '-H', 'Idempotency-Key: k-123', '-f', 'a=b']);
    expect(res.code).toBe(0);
    const sent = server.requests.slice(before);
    expect(sent.map((r) => r.headers['idempotency-key'])).toEqual(['k-123', 'k-123']);
    const broken = server.requests.length;
    expect((await wes(['POST', '/api/v2/broken', '-H', 'Idempotency-Key: k-124', '-f', 'a=b'])).code).toBe(1);
    expect(server.requests.length - broken).toBe(1);
  });

  it('refuses malformed fields, headers and unreadable files as usage errors', async () => {
    const results = await Promise.all([
      wes(['POST', '/api/v2/x', '-f', 'novalue']),
      wes(['POST', '/api/v2/x', '-H', 'bad header']),
      wes(['POST', '/api/v2/x', '--input', join(dir, 'absent.json')]),
      wes(['GET', '/api/v2/x', '--input', '-']),
    ]);
    expect(results.map((r) => r.code)).toEqual([2, 2, 2, 2]);
    expect(results[2]!.stderr).toContain('absent.json: no such file');
  });
});

describe('wes api: answers', () => {
  it('prints the body byte for byte when piped, and the status line and headers with --include', async () => {
    const res = await wes(['GET', '/api/v2/blob']);
    expect(res.code).toBe(0);
    expect(res.stdoutBytes.equals(BINARY)).toBe(true);
    const inc = await wes(['GET', '/api/v2/jobs/j1', '--include']);
    const [head, body] = inc.stdout.split('\n\n');
    expect(head!.split('\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(head).toContain('content-type: application/json');
    expect(JSON.parse(body!)).toEqual({ ok: true, method: 'GET' });
  });

  it('prints an error answer on stdout too, and exits by the exit-code table', async () => {
    const res = await wes(['GET', '/api/v2/missing', '-i']);
    expect(res.code).toBe(5);
    expect(res.stdout).toMatch(/^HTTP\/1.1 404 Not Found\n/);
    expect(res.stdout).toContain('x-service-request-id: rid-404');
    expect(res.stdout.trimEnd().endsWith('{"error":{"code":"not_found","message":"no such thing"}}')).toBe(true);
    expect(res.stderr).toContain('no such thing');
    const asJson = await wes(['GET', '/api/v2/missing', '--json']);
    expect(JSON.parse(asJson.stderr).error).toMatchObject({ code: 'not_found', status: 404, request_id: 'rid-404' });
  });

  it('--paginate walks every page while has_more, passing each cursor back exactly', async () => {
    const before = server.requests.length;
    const res = await wes(['GET', '/v1/models', '--paginate', '-F', 'limit=2']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual([{ id: 'a/one' }, { id: 'a/two' }, { id: 'b/three' }]);
    const cursors = server.requests.slice(before).map((r) => new URL(r.url, 'http://x').searchParams.get('cursor'));
    expect(cursors).toEqual([null, 'c+1/=', 'c~2.-_']);
    expect((await wes(['POST', '/v1/models', '--paginate'])).code).toBe(2);
    expect((await wes(['GET', '/api/v2/jobs/j1', '--paginate'])).code).toBe(1);
  });
});

describe('wes api against the dev-server', () => {
  const dev = useDevServer();
  it('reads the router catalog and a missing job the way the commands see them', async () => {
    const env = { WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey };
    const all = await runWes(['api', 'GET', '/v1/models', '--paginate', '-F', 'limit=7'], { env });
    expect(all.code).toBe(0);
    const listed = await runWes(['models', 'list', '--all', '--json'], { env });
    expect(JSON.parse(all.stdout)).toEqual(JSON.parse(listed.stdout));
    const missing = await runWes(['api', 'GET', '/api/v2/jobs/00000000-0000-0000-0000-000000000001'], { env });
    expect(missing.code).toBe(5);
    expect(JSON.parse(missing.stdout).error.code).toBe('job_not_found'); // the default (cloud) surface speaks Comfy Cloud's entity codes
  });
});
