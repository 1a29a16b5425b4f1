// A kept .part, a server that ignores Range (200 with the whole file), and a part file that cannot
// be emptied for the restart (made append-only: ftruncate fails with EPERM). The download must end
// with that error, leave the kept bytes and no final file, and give up the answer's body: its
// connection is closed at once rather than held open, paused, until the read timeout.
// Making a file append-only needs chattr and root (CAP_LINUX_IMMUTABLE); elsewhere this is skipped.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { saveToFile } from '../../src/files/save.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';

function chattr(flag: '+a' | '-a', path: string): void {
  execFileSync('chattr', [flag, path], { stdio: 'ignore' });
}

/** Whether this machine lets the test make a file append-only (and undo it). */
function canMakeAppendOnly(): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'wes-append-only-'));
  const probe = join(dir, 'probe');
  try {
    writeFileSync(probe, '');
    chattr('+a', probe);
    chattr('-a', probe);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a restart that cannot empty the part file', () => {
  it.skipIf(!canMakeAppendOnly())('fails with the disk error, keeps the part, and closes the ignored answer at once (skipped where chattr +a cannot make an append-only file: it needs root and a file system that has the flag)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wes-range-ignored-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const part = join(dir, 'big.bin.part');
    writeFileSync(part, 'kept by an earlier run');
    cleanups.push(() => chattr('-a', part));

    const body = Buffer.alloc(32 << 20, 7); // far more than the socket buffers hold
    let socketClosed!: Promise<void>;
    const server: TestServer = await startTestServer((req, res) => {
      socketClosed = new Promise((r) => (req.socket as Socket).once('close', () => r()));
      res.writeHead(200, { 'content-length': String(body.length) }).end(body); // Range ignored
    });
    cleanups.push(() => server.close());
    const http = new HttpClient({ baseUrl: server.url, routerUrl: server.url, retries: 0, readTimeoutMs: 120_000 });
    cleanups.push(() => http.close());

    const err = await saveToFile({
      dir,
      name: 'big.bin',
      open: async (offset) => {
        expect(offset).toBe('kept by an earlier run'.length);
        chattr('+a', part);
        const res = await http.signedChunks(new URL(`${server.url}/signed/big.bin`), { range: `bytes=${offset}-` });
        return { status: res.status, body: res.body };
      },
    }).catch((e: unknown) => e);

    expect(err).toMatchObject({ code: 'EPERM', syscall: 'ftruncate' });
    const closed = await Promise.race([socketClosed.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
    expect(closed).toBe(true);
    expect(server.requests[0]!.headers.range).toBe('bytes=22-');
    expect(readFileSync(part, 'utf8')).toBe('kept by an earlier run');
    expect(existsSync(join(dir, 'big.bin'))).toBe(false);
  });
});
