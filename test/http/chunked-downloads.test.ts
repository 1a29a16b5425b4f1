// Downloads taken as chunks (HttpClient.signedChunks): over http: the sockets read into reused
// buffers, so every byte must reach the consumer exactly once and in order however the consumer
// pauses, an error answer must still be read whole, and a body that breaks, is aborted or whose
// consumer fails must end the transfer with that reason.
import { createHash, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import type { ChunkedBody } from '../../src/http/chunked-body.js';
import { ApiError } from '../../src/errors.js';
import { json, startTestServer, writeInPieces, type TestServer } from '../helpers/http-server.js';

const servers: TestServer[] = [];
const clients: HttpClient[] = [];
async function server(handler: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const s = await startTestServer(handler);
  servers.push(s);
  return s;
}
function client(base: string, signal?: AbortSignal): HttpClient {
  const c = new HttpClient({ baseUrl: base, routerUrl: base, apiKey: 'key-chunks-0001', retries: 0, signal });
  clients.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Writes `body` in pieces of uneven sizes, waiting for the socket to drain as a server would. */
async function sendInPieces(res: ServerResponse, body: Buffer, headers: Record<string, string> = {}, stopAt = body.length): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length), ...headers });
  await writeInPieces(res, body, { stopAt });
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('a download taken as chunks', () => {
  it('hands over every byte once and in order while the consumer pauses at random, reading into reused buffers', async () => {
    const body = randomBytes(24 << 20);
    const s = await server((_req, res) => sendInPieces(res, body));
    const res = await client(s.url).signedChunks(new URL(`${s.url}/blob`));
    expect(res.status).toBe(200);
    const hash = createHash('sha256');
    const memories = new Set<ArrayBufferLike>();
    let chunks = 0;
    let bytes = 0;
    let big = 0;
    await res.body.forEach((chunk) => {
      hash.update(chunk);
      memories.add(chunk.buffer);
      chunks++;
      bytes += chunk.length;
      if (chunk.length > 64 * 1024) big++;
      // Pausing mid-stream makes undici put unparsed bytes back into the socket: those must survive the next read.
      if (chunks % 3 === 0) return new Promise<void>((r) => setTimeout(r, chunks % 2));
      return undefined;
    });
    expect(bytes).toBe(body.length);
    expect(hash.digest('hex')).toBe(sha256(body));
    expect(big).toBeGreaterThan(0);
    expect(memories.size).toBeLessThan(chunks / 2);
  });

  it('small pieces arriving while the consumer waits land in fresh memory, not over bytes still unread', async () => {
    const body = randomBytes(300 * 1000);
    const s = await server(async (_req, res) => {
      res.writeHead(200, { 'content-length': String(body.length) });
      for (let at = 0; at < body.length; at += 1000) {
        res.write(body.subarray(at, at + 1000));
        await new Promise((r) => setTimeout(r, 1));
      }
      res.end();
    });
    const res = await client(s.url).signedChunks(new URL(`${s.url}/blob`));
    const hash = createHash('sha256');
    let chunks = 0;
    await res.body.forEach((chunk) => {
      hash.update(chunk);
      // While the consumer waits, several small reads pile up unread in the socket.
      if (++chunks % 10 === 0) return new Promise<void>((r) => setTimeout(r, 15));
      return undefined;
    });
    expect(hash.digest('hex')).toBe(sha256(body));
  });

  it('a Range answer (206) is taken the same way; the signed hop gets no credential', async () => {
    const body = randomBytes(3 << 20);
    const s = await server((req, res) => {
      const from = Number(/bytes=(\d+)-/.exec(req.headers.range ?? '')?.[1] ?? 0);
      res.writeHead(206, { 'content-range': `bytes ${from}-${body.length - 1}/${body.length}` }).end(body.subarray(from));
    });
    const res = await client(s.url).signedChunks(new URL(`${s.url}/blob`), { range: 'bytes=1000-', authorization: 'Bearer smuggled' });
    const got: Buffer[] = [];
    await res.body.forEach((chunk) => void got.push(Buffer.from(chunk)));
    expect(res.status).toBe(206);
    expect(sha256(Buffer.concat(got))).toBe(sha256(body.subarray(1000)));
    expect(s.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('an error answer is read whole and decoded', async () => {
    const s = await server((_req, res) => json(res, 404, { error: { code: 'asset_not_found', message: 'no asset called a1', detail: 'x'.repeat(300_000) } }));
    const err = await client(s.url).redirectToSignedChunks({ family: 'jobs', url: '/api/v2/assets/a1/content' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(404);
    expect((err as ApiError).code).toBe('asset_not_found');
    expect((err as ApiError).message).toContain('no asset called a1');
  });

  it('a body that breaks mid-way rejects after the bytes that did arrive, which are a prefix of the file', async () => {
    const body = randomBytes(8 << 20);
    const s = await server((_req, res) => sendInPieces(res, body, {}, 5 << 20));
    const res = await client(s.url).signedChunks(new URL(`${s.url}/blob`));
    const got: Buffer[] = [];
    const err = await res.body.forEach((chunk) => void got.push(Buffer.from(chunk))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    const prefix = Buffer.concat(got);
    expect(prefix.length).toBeLessThanOrEqual(5 << 20);
    expect(prefix.equals(body.subarray(0, prefix.length))).toBe(true);
  });

  it('Ctrl-C (the client signal) mid-body ends the transfer with the signal reason', async () => {
    const body = randomBytes(16 << 20);
    const s = await server((_req, res) => sendInPieces(res, body));
    const controller = new AbortController();
    const res = await client(s.url, controller.signal).signedChunks(new URL(`${s.url}/blob`));
    const reason = new Error('interrupted by the test');
    let taken = 0;
    const err = await res.body
      .forEach((chunk) => {
        taken += chunk.length;
        if (taken > 1 << 20) controller.abort(reason);
      })
      .catch((e: unknown) => e);
    expect(err).toBe(reason);
    expect(taken).toBeLessThan(body.length);
  });

  it('a consumer that fails (a full disk) ends the transfer with its error, and the body can be taken only once', async () => {
    const body = randomBytes(4 << 20);
    const s = await server((_req, res) => sendInPieces(res, body));
    const res = await client(s.url).signedChunks(new URL(`${s.url}/blob`));
    const full = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    const err = await res.body.forEach(() => Promise.reject(full)).catch((e: unknown) => e);
    expect(err).toBe(full);
    await expect((res.body as ChunkedBody).forEach(() => undefined)).rejects.toThrow(/once/);
  });
});
