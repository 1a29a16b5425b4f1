// An upload's file is read into two buffers used in turn (src/http/multipart.ts, fileBytes): safe
// only because undici asks its iterable body for the next piece once the last one is written to
// the socket. Through the real HTTP client to a server that reads slowly (so writes wait for
// 'drain') and to one that reads at once, every byte must arrive as it is on disk; an undici
// that read ahead would send pieces overwritten by later reads, and fail here.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { multipartBody } from '../../src/http/multipart.js';

const dir = mkdtempSync(join(tmpdir(), 'wes-multipart-reuse-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A server that hashes every byte of the request body, pausing its reads now and then when `slow`. */
async function hashingServer(slow: boolean): Promise<{ url: string; received: Array<{ bytes: number; sha256: string }> }> {
  const received: Array<{ bytes: number; sha256: string }> = [];
  const server: Server = createServer((req, res) => {
    const hash = createHash('sha256');
    let bytes = 0;
    let chunks = 0;
    req.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      bytes += chunk.length;
      if (slow && ++chunks % 16 === 0) {
        req.pause();
        setTimeout(() => req.resume(), 3);
      }
    });
    req.on('end', () => {
      received.push({ bytes, sha256: hash.digest('hex') });
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => (server.closeAllConnections(), server.close(r))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

async function expectedBody(form: Awaited<ReturnType<typeof multipartBody>>): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of form.body()) pieces.push(Buffer.from(piece));
  return Buffer.concat(pieces);
}

describe('an upload whose file is read into reused buffers', () => {
  const file = join(dir, 'upload.bin');
  const bytes = randomBytes(12 * (1 << 20) + 4321);
  writeFileSync(file, bytes);

  for (const slow of [true, false]) {
    it(`arrives byte for byte at a server that reads ${slow ? 'slowly' : 'at once'}`, async () => {
      const server = await hashingServer(slow);
      const http = new HttpClient({ baseUrl: server.url, routerUrl: server.url, apiKey: 'key-upload-0001', retries: 0 });
      closers.push(() => http.close());
      let reported = 0;
      const form = await multipartBody([{ name: 'note', value: 'x' }, { name: 'file', path: file, filename: 'upload.bin' }], (sent) => (reported = sent));
      const res = await http.json<{ ok: boolean }>({ family: 'jobs', method: 'POST', url: '/api/v2/assets', headers: form.headers, body: form.body, idempotencyKey: 'k' });
      expect(res.body.ok).toBe(true);
      expect(reported).toBe(bytes.length);
      const expected = await expectedBody(form);
      expect(expected.includes(bytes)).toBe(true);
      expect(server.received).toEqual([{ bytes: expected.length, sha256: createHash('sha256').update(expected).digest('hex') }]);
    });
  }
});
