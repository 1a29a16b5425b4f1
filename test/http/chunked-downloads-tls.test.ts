// A download taken as chunks over https (undici's own TLS connections, records of at most 16 KiB):
// saveToFile gathers the small chunks into few writes and the file ends byte-exact and verified.
// The server's certificate is signed by a private CA the client is told to trust (HttpClient's
// `ca`), so no TLS check is switched off.
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
import { makePrivateCa } from '../helpers/private-ca.js';

const dir = mkdtempSync(join(tmpdir(), 'wes-tls-chunks-'));
// no openssl: skipped, saying so (the http cases cover the same code above the socket)
const tls = makePrivateCa();

describe.skipIf(!tls)('a download taken as chunks over https (skipped where openssl is missing: no certificate can be made)', () => {
  const body = randomBytes(9 * (1 << 20) + 333);
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer({ key: tls!.key, cert: tls!.cert }, (_req, res) => res.writeHead(200, { 'content-length': String(body.length) }).end(body));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
    tls!.remove();
  });

  it('is saved byte-exact and verified against its blake3', async () => {
    const http = new HttpClient({ baseUrl: origin, routerUrl: origin, retries: 0, ca: [tls!.ca] });    const hasher = await createBlake3();
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
