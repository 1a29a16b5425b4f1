// The files `models run --download` and the legacy commands (`legacy view -o`, `legacy prompt
// --download`, batches via v1) save are taken as chunks, like `jobs download`: through an
// HttpClient whose stream downloads (signed, redirectToSigned) refuse, against a server that sends
// each body in many small uneven pieces, breaks the first one mid-way, and checks that the signed
// hop carries no credential. The files must end byte-exact under their names, with no .part left.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { LegacyClient } from '../../src/clients/legacy/client.js';
import { downloadUrls } from '../../src/clients/models/output-urls.js';
import { downloadOutputs } from '../../src/features/legacy/files.js';
import { startTestServer, writeInPieces, type TestServer } from '../helpers/http-server.js';

/** A real client whose stream downloads refuse: a download that reaches one went back to the stream path. */
class ChunksOnlyClient extends HttpClient {
  override async signed(): Promise<never> {
    throw new Error('a file download went through HttpClient.signed (the stream path)');
  }

  override async redirectToSigned(): Promise<never> {
    throw new Error('a file download went through HttpClient.redirectToSigned (the stream path)');
  }
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Sends `body` from `from` in pieces of uneven sizes (1 byte to ~30 KB); `breakAt` cuts the connection there. */
async function sendInPieces(res: ServerResponse, body: Buffer, from: number, breakAt = body.length): Promise<void> {
  const status = from > 0 ? 206 : 200;
  const range = from > 0 ? { 'content-range': `bytes ${from}-${body.length - 1}/${body.length}` } : {};
  res.writeHead(status, { 'content-type': 'application/octet-stream', 'content-length': String(body.length - from), 'accept-ranges': 'bytes', ...range });
  await writeInPieces(res, body, { from, stopAt: breakAt, maxPiece: 30_000 });
}

async function setUp(handler: Parameters<typeof startTestServer>[0]): Promise<{ server: TestServer; http: HttpClient; dir: string }> {
  const server = await startTestServer(handler);
  const http = new ChunksOnlyClient({ baseUrl: server.url, routerUrl: server.url, apiKey: 'key-chunks-legacy', routerToken: 'token-chunks-router', retries: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'wes-chunks-'));
  cleanups.push(() => server.close(), () => http.close(), () => rmSync(dir, { recursive: true, force: true }));
  return { server, http, dir };
}

describe('output files are saved from chunks, not a stream', () => {
  it('legacy: /api/view\'s signed body, broken once, is fetched again whole; the signed hop gets no key', async () => {
    const body = randomBytes(3 << 20);
    let signedHits = 0;
    const { server, http, dir } = await setUp((req, res) => {
      const url = new URL(req.url!, 'http://x');
      if (url.pathname === '/api/view') {
        res.writeHead(302, { location: `/signed/${url.searchParams.get('filename')}?sig=abc` }).end();
        return undefined;
      }
      signedHits++;
      return sendInPieces(res, body, 0, signedHits === 1 ? body.length >> 1 : body.length);
    });
    const client = new LegacyClient(http);
    const ref = { node: '9', kind: 'images', filename: 'big.png', subfolder: '', type: 'output' };
    await expect(client.view(ref)).rejects.toThrow(/stream path/); // the guard is live
    const saved = await downloadOutputs(client, [ref], dir, () => undefined);
    expect(saved.map((f) => f.name)).toEqual(['big.png']);
    expect(sha256(readFileSync(join(dir, 'big.png')))).toBe(sha256(body));
    expect(readdirSync(dir)).toEqual(['big.png']);
    expect(signedHits).toBe(2);
    const signed = server.requests.filter((r) => r.url.startsWith('/signed/'));
    expect(signed.every((r) => r.headers['x-api-key'] === undefined && r.headers.authorization === undefined)).toBe(true);
    expect(server.requests.find((r) => r.url.startsWith('/api/view'))?.headers['x-api-key']).toBe('key-chunks-legacy');
  });

  it('models: an output URL\'s body, broken once, is resumed with Range; it gets no token, and its name stays in the folder', async () => {
    const body = randomBytes(3 << 20);
    const { server, http, dir } = await setUp((req, res) => {
      const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0);
      return sendInPieces(res, body, from, from === 0 ? 1_000_003 : body.length);
    });
    const url = new URL(`${server.url}/out/..%2F..%2Fescape.bin?sig=1`);
    await expect(http.signed(url)).rejects.toThrow(/stream path/); // the guard is live
    const saved = await downloadUrls(http, [url], dir);
    expect(saved).toHaveLength(1);
    expect(saved[0]!.path.startsWith(dir)).toBe(true);
    expect(readdirSync(dir)).toEqual([saved[0]!.name]);
    expect(sha256(readFileSync(saved[0]!.path))).toBe(sha256(body));
    expect(existsSync(`${saved[0]!.path}.part`)).toBe(false);
    // The second request goes on from what arrived before the break (the server's last writes may be lost with the socket).
    const [first, second, ...more] = server.requests.map((r) => r.headers.range);
    expect([first, more]).toEqual([undefined, []]);
    expect(Number(/^bytes=(\d+)-$/.exec(second ?? '')?.[1])).toBeGreaterThan(0);
    expect(server.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
  });
});
