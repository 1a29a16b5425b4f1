// Downloads against servers that answer as the reference self-hosted job API server does: every
// output declared 0 bytes with a null hash, its content served on the server's own origin (behind
// the server's token), and links that redirect elsewhere. Bytes count over declarations: the
// content is always asked for and checked against the transfer itself; the credential goes to the
// configured origin only and never follows a redirect away from it.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFaults, bytesWorkflow, imageWorkflow, useDevServer } from '../helpers/dev-server.js';
import { json, startTestServer, type TestServer } from '../helpers/http-server.js';
import { runWes } from '../helpers/cli.js';
import { seen, useTempDir, wesAgainst, writeTemp } from './jobs-env.js';

describe('downloads from a self-hosted job API server (sizes declared 0, hashes null)', () => {
  const ctx = useDevServer({ deployment: 'self-hosted', faults: true, stepMs: 2 });
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('--download saves the real bytes, never an empty file; says once that nothing was verified by hash and that the declared sizes differ', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'declared', steps: 1 }));
    const out = join(dir(), 'declared');
    const res = await wes(['jobs', 'submit', flow, '--download', out]);
    expect(res.code, res.stderr).toBe(0);
    const png = readdirSync(out).find((n) => n.endsWith('.png'))!;
    const bytes = readFileSync(join(out, png));
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(res.stderr.match(/not verified by hash/g)).toHaveLength(1);
    expect(res.stderr).toContain(`declared 0, received ${bytes.length}`);
    const id = res.stdout.split('\n')[0]!;
    const json = await wes(['jobs', 'download', id, join(dir(), 'again'), '--json']);
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ bytes: bytes.length, declared_size_bytes: 0, verified: false, hash: expect.stringMatching(/^blake3:/) })]);
  });

  it('a broken transfer of the content route resumes with Range on the server itself (a 206), whole in the end', async () => {
    const flow = writeTemp(dir(), bytesWorkflow(200_000));
    const submitted = await wes(['jobs', 'submit', flow, '--wait', '--json']);
    const job = JSON.parse(submitted.stdout.trim().split('\n').at(-1)!);
    const content = new URL(job.outputs[0].url).pathname;
    await addFaults(ctx.server, { match: `GET ${content}`, action: 'drop', after_bytes: 70_000 });
    const before = seen(ctx.server, `GET ${content}`);
    const out = join(dir(), 'resumed');
    const res = await wes(['jobs', 'download', job.id, out]);
    expect(res.code, res.stderr).toBe(0);
    expect(seen(ctx.server, `GET ${content}`) - before).toBe(2);
    expect(statSync(join(out, job.outputs[0].name)).size).toBe(200_000);
  });
});

describe('a self-hosted job API server started with a token', () => {
  const ctx = useDevServer({ deployment: 'self-hosted', apiKey: 'T-0123456789abcdef', stepMs: 2 });
  const dir = useTempDir();

  it('output content on its own origin gets the token (without it: 401), so --download works', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'token', steps: 1 }));
    const out = join(dir(), 'token');
    const res = await runWes(['jobs', 'submit', flow, '--download', out], { env: { WES_BASE_URL: ctx.server.url, WES_API_KEY: 'T-0123456789abcdef' } });
    expect(res.code, res.stderr).toBe(0);
    expect(readdirSync(out).filter((n) => n.endsWith('.png'))).toHaveLength(1);
    const job = JSON.parse((await runWes(['jobs', 'get', res.stdout.split('\n')[0]!, '--json'], { env: { WES_BASE_URL: ctx.server.url, WES_API_KEY: 'T-0123456789abcdef' } })).stdout);
    expect((await fetch(job.outputs[0].url)).status).toBe(401);
  });
});

describe('content links that leave the configured origin', () => {
  let storage: TestServer;
  let api: TestServer;
  const dir = useTempDir();
  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108020000009077', 'hex');
  const KEY = 'key-not-for-storage-0000';

  function jobBody(origin: string): unknown {
    const now = new Date().toISOString();
    return {
      id: 'job-1', status: 'succeeded', created_at: now, started_at: now, completed_at: now, expires_at: new Date(Date.now() + 3600_000).toISOString(),
      queue_position: null, progress: null, error: null,
      urls: { self: `${origin}/api/v2/jobs/job-1`, events: `${origin}/api/v2/jobs/job-1/events`, cancel: `${origin}/api/v2/jobs/job-1/cancel` },
      outputs: [
        // On the configured origin, redirecting to storage elsewhere.
        { node_id: '3', name: 'same-origin.png', type: 'image', content_type: 'image/png', size_bytes: 0, id: 'o1', hash: null, url: `${origin}/content/o1`, url_expires_at: new Date(Date.now() + 600_000).toISOString() },
        // Signed storage directly.
        { node_id: '3', name: 'signed.png', type: 'image', content_type: 'image/png', size_bytes: PNG.length, id: 'o2', hash: null, url: `${storage.url}/signed/o2?sig=1`, url_expires_at: new Date(Date.now() + 600_000).toISOString() },
      ],
    };
  }

  beforeAll(async () => {
    storage = await startTestServer((_req, res: ServerResponse) => res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PNG.length) }).end(PNG));
    api = await startTestServer((req, res) => {
      if (req.url === '/api/v2/jobs/job-1') return json(res, 200, jobBody(api.url));
      if (req.url === '/content/o1') return res.writeHead(302, { location: `${storage.url}/signed/o1?sig=2` }).end();
      return json(res, 404, { error: { code: 'not_found', message: 'no' } });
    });
  });
  afterAll(async () => {
    await storage.close();
    await api.close();
  });

  it('the same-origin link gets the key; the redirect from it and the signed URL get none', async () => {
    const out = join(dir(), 'mixed');
    const res = await runWes(['jobs', 'download', 'job-1', out], { env: { WES_BASE_URL: api.url, WES_API_KEY: KEY } });
    expect(res.code, res.stderr).toBe(0);
    expect(readFileSync(join(out, 'same-origin.png')).equals(PNG)).toBe(true);
    expect(readFileSync(join(out, 'signed.png')).equals(PNG)).toBe(true);
    const contentHop = api.requests.find((r) => r.url === '/content/o1')!;
    expect(contentHop.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(storage.requests.length).toBe(2);
    for (const r of storage.requests) {
      expect(r.headers.authorization).toBeUndefined();
      expect(r.headers['x-api-key']).toBeUndefined();
      expect(r.headers.cookie).toBeUndefined();
    }
  });
});
