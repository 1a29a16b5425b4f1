import { request } from 'node:http';
import { createBLAKE3 } from 'hash-wasm';
import { describe, expect, it } from 'vitest';
import { bytesWorkflow, startFast, submitJob, useDevServer, waitForJob, type Json } from '../helpers/dev-server.js';

async function hashOf(res: Response): Promise<{ hash: string; size: number }> {
  const hasher = await createBLAKE3();
  hasher.init();
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    hasher.update(chunk);
    size += chunk.length;
  }
  return { hash: `blake3:${hasher.digest('hex')}`, size };
}

/** Raw GET, so forbidden-in-fetch headers like Cookie are really sent. */
function rawGet(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('signed URLs', () => {
  const ctx = useDevServer();
  let output: Json;
  const SIZE = 3 * 1024 * 1024 + 17;

  it('streams a multi-megabyte synthetic output whose blake3 matches the reported hash', async () => {
    const done = await waitForJob(ctx.server, (await submitJob(ctx.server, bytesWorkflow(SIZE))).body.urls.self, ['succeeded']);
    output = done.outputs[0];
    const res = await fetch(output.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(SIZE));
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(await hashOf(res)).toEqual({ hash: output.hash, size: SIZE });
  });

  it('serves byte ranges (206) and refuses unsatisfiable ones (416)', async () => {
    const whole = Buffer.from(await (await fetch(output.url)).arrayBuffer());
    const part = await fetch(output.url, { headers: { range: 'bytes=65530-65545' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 65530-65545/${SIZE}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(65530, 65546));
    const tail = await fetch(output.url, { headers: { range: 'bytes=-10' } });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(whole.subarray(SIZE - 10));
    const open = await fetch(output.url, { headers: { range: `bytes=${SIZE - 3}-` } });
    expect(Buffer.from(await open.arrayBuffer())).toEqual(whole.subarray(SIZE - 3));
    const beyond = await fetch(output.url, { headers: { range: `bytes=${SIZE}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${SIZE}`);
  });

  it('answers HEAD with the length and no body', async () => {
    const res = await fetch(output.url, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(SIZE));
  });

  it('refuses altered URLs with 403', async () => {
    const url = new URL(output.url);
    const otherSig = new URL(url);
    otherSig.searchParams.set('sig', url.searchParams.get('sig')!.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')));
    const laterExpiry = new URL(url);
    laterExpiry.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 1000));
    const otherName = new URL(url);
    otherName.pathname = url.pathname.replace(/bytes_00001_\.bin$/, 'other.bin');
    const noSig = new URL(url);
    noSig.searchParams.delete('sig');
    for (const altered of [otherSig, laterExpiry, otherName, noSig]) {
      const res = await fetch(altered);
      expect(res.status).toBe(403);
    }
  });

  it('refuses any request carrying a credential with 400', async () => {
    for (const headers of [{ authorization: 'Bearer x' }, { 'x-api-key': 'k' }, { cookie: 'session=1' }] as Record<string, string>[]) {
      expect(await rawGet(output.url, headers)).toBe(400);
    }
    expect(await rawGet(output.url, {})).toBe(200);
  });

  it('puts a request id on signed responses too', async () => {
    const res = await fetch(output.url, { method: 'HEAD' });
    expect(res.headers.get('x-comfy-request-id')).toMatch(/^req_/);
  });
});

describe('signed URL expiry', () => {
  it('answers 403 once the URL has expired; re-reading the job gives a fresh one', async () => {
    const server = await startFast({ urlTtlMs: 60 });
    try {
      const done = await waitForJob(server, (await submitJob(server, bytesWorkflow(100))).body.urls.self, ['succeeded']);
      await new Promise((r) => setTimeout(r, 80));
      const stale = await fetch(done.outputs[0].url);
      expect(stale.status).toBe(403);
      expect(((await stale.json()) as Json).error.code).toBe('url_expired');
      const again = await waitForJob(server, done.urls.self, ['succeeded']);
      expect((await fetch(again.outputs[0].url)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
