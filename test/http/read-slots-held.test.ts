// The bulk sockets read into shared slots that a consumer may hold while another thread reads a
// chunk in place (the part thread does: files/part-thread.ts). A held slot must not be read into
// until it is released, however long the other thread takes, and the reads must go on elsewhere
// meanwhile (or wait for the slot): every byte reaches the other thread once, in order, intact.
import { createHash, randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { holdReadSlot, isReadSlotChunk } from '../../src/http/reused-read-socket.js';
import { startTestServer, writeInPieces, type TestServer } from '../helpers/http-server.js';

const servers: TestServer[] = [];
const clients: HttpClient[] = [];
const workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.terminate()));
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

// The other thread: checks each held chunk against the body at its place after a pause of up to
// 3 ms (so that the reads catch up with it and every slot is held at times), then releases it.
const CHECKER = `
const { parentPort, workerData } = require('node:worker_threads');
const body = new Uint8Array(workerData.body);
const nap = new Int32Array(new SharedArrayBuffer(4));
let at = 0, wrong = 0, chunks = 0;
parentPort.on('message', (m) => {
  if (m.done) return parentPort.postMessage({ at, wrong, chunks });
  Atomics.wait(nap, 0, 0, (chunks++ * 7) % 4);
  const got = new Uint8Array(m.memory, m.offset, m.length);
  for (let i = 0; i < got.length; i += 997) if (got[i] !== body[at + i]) wrong++;
  if (got[got.length - 1] !== body[at + got.length - 1]) wrong++;
  at += got.length;
  Atomics.sub(m.holds, m.slot, 1);
  Atomics.notify(m.holds, m.slot);
});
`;

describe('read slots held by another thread', () => {
  it('are not read into until released: the other thread sees every byte once, in order, intact', async () => {
    const body = randomBytes(40 << 20);
    const shared = new SharedArrayBuffer(body.length);
    new Uint8Array(shared).set(body);
    const s = await startTestServer(async (_req, res) => {
      res.writeHead(200, { 'content-length': String(body.length) });
      await writeInPieces(res, body);
    });
    servers.push(s);
    const http = new HttpClient({ baseUrl: s.url, routerUrl: s.url, apiKey: 'key-slots-0001', retries: 0 });
    clients.push(http);
    const checker = new Worker(CHECKER, { eval: true, workerData: { body: shared } });
    workers.push(checker);
    const res = await http.signedChunks(new URL(`${s.url}/blob`));
    const hash = createHash('sha256');
    let copied = 0;
    let handed = 0;
    await res.body.forEach((chunk) => {
      hash.update(chunk);
      if (!isReadSlotChunk(chunk)) {
        copied += chunk.length; // a stopgap read: not in a slot, so the consumer keeps no hold on it
        checker.postMessage({ memory: new Uint8Array(chunk).buffer, holds: new Int32Array(new SharedArrayBuffer(4)).fill(1), slot: 0, offset: 0, length: chunk.length });
        return;
      }
      const held = holdReadSlot(chunk)!;
      handed += held.length;
      checker.postMessage({ memory: held.memory, holds: held.holds, slot: held.slot, offset: held.offset, length: held.length });
    });
    const seen = await new Promise<{ at: number; wrong: number; chunks: number }>((resolve) => {
      checker.once('message', resolve);
      checker.postMessage({ done: true });
    });
    expect(hash.digest('hex')).toBe(createHash('sha256').update(body).digest('hex'));
    expect(seen).toMatchObject({ at: body.length, wrong: 0 });
    expect(handed).toBeGreaterThan(body.length / 2);
    expect(handed + copied).toBe(body.length);
  });
});
