// The part thread (files/part-thread.ts): when a download's writes and hash go there, that it
// writes every byte in order and hashes exactly what it wrote, and that a write it cannot make
// stops that download with the disk's own error while the thread goes on serving others.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { partOnThread, threadPays, THREAD_MIN_BYTES, THREAD_MIN_CORES } from '../../src/files/part-thread.js';
import type { PartStream } from '../../src/files/part-writer.js';
import { blake3Backend, createBlake3 } from '../../src/util/blake3.js';
import { startTestServer, writeInPieces, type TestServer } from '../helpers/http-server.js';

const dir = mkdtempSync(join(tmpdir(), 'wes-part-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const servers: TestServer[] = [];
const clients: HttpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serving(body: Buffer): Promise<HttpClient & { blob: URL }> {
  const s = await startTestServer(async (_req, res) => {
    res.writeHead(200, { 'content-length': String(body.length) });
    await writeInPieces(res, body);
  });
  servers.push(s);
  const http = new HttpClient({ baseUrl: s.url, routerUrl: s.url, apiKey: 'key-part-thread-01', retries: 0 });
  clients.push(http);
  return Object.assign(http, { blob: new URL(`${s.url}/blob`) });
}

async function blake3Hex(bytes: Buffer): Promise<string> {
  const hasher = await createBlake3();
  hasher.update(bytes);
  return hasher.hex();
}

const native = blake3Backend() === 'native';

/** Downloads `body` into a new file through a part stream on the thread: every byte written, counted and hashed. */
async function expectThroughThread(http: HttpClient & { blob: URL }, body: Buffer, name: string): Promise<void> {
  const path = join(dir, name);
  const handle = await open(path, 'a');
  const part = partOnThread(handle.fd)!;
  await (await http.signedChunks(http.blob)).body.forEach((chunk) => part.add(chunk));
  expect(await part.settle()).toEqual({ bytes: body.length });
  expect(await part.digest()).toBe(await blake3Hex(body));
  await handle.close();
  expect(readFileSync(path).equals(body)).toBe(true);
}

describe('the part thread', () => {
  it('is used for a large download from a bulk socket on a machine with cores to spare, or when asked, never for other chunks', async () => {
    const http = await serving(randomBytes(2 << 20));
    let first: Buffer | undefined;
    await (await http.signedChunks(http.blob)).body.forEach((chunk) => void (first ??= chunk));
    const big = THREAD_MIN_BYTES;
    expect(threadPays(first!, big, undefined, THREAD_MIN_CORES)).toBe(true);
    expect(threadPays(first!, big - 1, undefined, THREAD_MIN_CORES)).toBe(false);
    expect(threadPays(first!, undefined, undefined, THREAD_MIN_CORES)).toBe(false);
    expect(threadPays(first!, big, undefined, THREAD_MIN_CORES - 1)).toBe(false);
    expect(threadPays(first!, 10, '1', 1)).toBe(true);
    expect(threadPays(first!, big, '0', 64)).toBe(false);
    // A chunk from anywhere else (TLS, a stream) is not in a slot: it stays on the receiving thread.
    expect(threadPays(Buffer.alloc(1 << 20), big, '1', 64)).toBe(false);
  });

  it.runIf(native)('writes every byte in order and hashes exactly them', async () => {
    const body = randomBytes(20 << 20);
    await expectThroughThread(await serving(body), body, 'whole.part');
  });

  it.runIf(native)('a write it cannot make stops that download with the disk\'s error; the thread serves the next one', async () => {
    const body = randomBytes(6 << 20);
    const http = await serving(body);
    writeFileSync(join(dir, 'read-only.part'), '');
    const readOnly = await open(join(dir, 'read-only.part'), 'r'); // not open for writing: each write fails with EBADF
    const broken: PartStream = partOnThread(readOnly.fd)!;
    const err = await (await http.signedChunks(http.blob)).body.forEach((chunk) => broken.add(chunk)).catch((e: unknown) => e);
    const settled = await broken.settle();
    expect(settled.bytes).toBe(0);
    expect(settled.failure).toMatchObject({ code: 'EBADF' });
    // add() stopped the transfer once the thread said so (or the body was all sent before it could).
    if (err !== undefined) expect(err).toBeInstanceOf(Error);
    broken.drop();
    await readOnly.close();

    await expectThroughThread(http, body, 'after.part');
  });

  it.skipIf(native)('is not started without the native blake3 (the WASM fallback hashes where the bytes arrive)', async () => {
    const handle = await open(join(dir, 'wasm.part'), 'a');
    expect(partOnThread(handle.fd)).toBeUndefined();
    await handle.close();
  });
});
