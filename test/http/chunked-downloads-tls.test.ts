// A download taken as chunks over https (undici's own TLS connections, records of at most 16 KiB):
// saveToFile gathers the small chunks into few writes and the file ends byte-exact and verified.
// The server's certificate is self-signed, so this file trusts it by NODE_TLS_REJECT_UNAUTHORIZED
// for its own duration (Node reads it at each connection).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { saveToFile } from '../../src/files/save.js';
import { createBlake3 } from '../../src/util/blake3.js';

const dir = mkdtempSync(join(tmpdir(), 'wes-tls-chunks-'));
let tls: { key: string; cert: string } | undefined;
try {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  tls = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
} catch {
  tls = undefined; // no openssl: skipped (the http cases cover the same code above the socket)
}

describe.skipIf(!tls)('a download taken as chunks over https', () => {
  const body = randomBytes(9 * (1 << 20) + 333);
  let server: Server;
  let origin: string;
  const trust = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  beforeAll(async () => {
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    server = createServer(tls!, (_req, res) => res.writeHead(200, { 'content-length': String(body.length) }).end(body));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (trust === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = trust;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('is saved byte-exact and verified against its blake3', async () => {
    const http = new HttpClient({ baseUrl: origin, routerUrl: origin, retries: 0 });
    const hasher = await createBlake3();
    hasher.update(body);
    const expected = `blake3:${hasher.hex()}`;
    try {
      const saved = await saveToFile({
        dir,
        name: 'over-tls.bin',
        expectedHash: expected,
        expectedSize: body.length,
        open: async () => {
          const res = await http.signedChunks(new URL(`${origin}/signed/over-tls.bin`));
          return { status: res.status, body: res.body };
        },
      });
      expect(saved).toMatchObject({ bytes: body.length, hash: expected, verified: true });
      expect(readFileSync(join(dir, 'over-tls.bin')).equals(body)).toBe(true);
    } finally {
      await http.close();
    }
  });
});
