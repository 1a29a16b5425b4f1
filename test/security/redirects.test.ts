// Credentials go only to the configured origins, and redirects never carry one: the HTTP client
// against purpose-built servers (signed hops, redirects to other origins and schemes, links that
// only look like the configured origin), and the binary over real TLS, where a signed URL that
// redirects from https down to http is refused before anything is fetched.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { WesError } from '../../src/errors.js';
import { json, startTestServer, type TestServer } from '../helpers/http-server.js';
import { filesUnder, wesAt } from '../faults/kit.js';
import { FAKE_JOB_ID, startFakeService, type FakeService } from './fake-service.js';

const KEY = 'sk-redirect-test-KEY-0451';
const ROUTER = 'rt-redirect-test-TOKEN-0452';
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'cookie', 'proxy-authorization'];

const servers: Array<TestServer | FakeService> = [];
async function server(handler: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const s = await startTestServer(handler);
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function client(base: string): HttpClient {
  return new HttpClient({ baseUrl: base, routerUrl: base, apiKey: KEY, routerToken: ROUTER, retries: 0 });
}

function credentialsSeen(s: TestServer): string[] {
  return s.requests.flatMap((r) => CREDENTIAL_HEADERS.filter((h) => r.headers[h] !== undefined).map((h) => `${r.url}: ${h}`));
}

describe('the HTTP client and redirects', () => {
  it('a signed URL that redirects through the configured origin and on to a third one: no hop gets a credential', async () => {
    const third = await server((_req, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('BYTES'));
    const base = await server((req, res) =>
      req.url!.startsWith('/bounce') ? res.writeHead(307, { location: `${third.url}/final?sig=1` }).end() : json(res, 200, {}),
    );
    const signed = await server((_req, res) => res.writeHead(302, { location: `${base.url}/bounce`, 'set-cookie': 'session=1' }).end());
    const res = await client(base.url).signed(new URL(`${signed.url}/signed/a?sig=x`), { authorization: 'Bearer smuggled', cookie: 'a=1', range: 'bytes=0-' });
    expect(Buffer.concat(await res.body.toArray()).toString()).toBe('BYTES');
    for (const s of [signed, base, third]) {
      expect(s.requests).toHaveLength(1);
      expect(credentialsSeen(s)).toEqual([]);
    }
    expect(third.requests[0]!.headers.range).toBe('bytes=0-');
  });

  it('a redirect to file:, ftp: or javascript: is refused without a request; the first hop alone was credentialed', async () => {
    for (const location of ['file:///etc/passwd', 'ftp://127.0.0.1/x', 'javascript:alert(1)']) {
      const base = await server((_req, res) => res.writeHead(302, { location }).end());
      const err = await client(base.url).redirectToSigned({ family: 'legacy', url: '/api/view?filename=a.png' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WesError);
      expect((err as WesError).code).toBe('bad_link');
      expect(base.requests).toHaveLength(1);
      expect(base.requests[0]!.headers['x-api-key']).toBe(KEY);
    }
  });

  it('an endless redirect chain ends after a bounded number of hops', async () => {
    const loop = await server((req, res) => res.writeHead(302, { location: `/hop${req.url!.length}` }).end());
    const err = await client('http://127.0.0.1:9').signed(new URL(`${loop.url}/start`)).catch((e: unknown) => e);
    expect((err as WesError).code).toBe('redirect_loop');
    expect(loop.requests).toHaveLength(6);
    expect(credentialsSeen(loop)).toEqual([]);
  });

  it('an API answer that redirects is not followed, so its credential cannot travel on', async () => {
    const elsewhere = await server((_req, res) => json(res, 200, {}));
    const base = await server((_req, res) => res.writeHead(307, { location: `${elsewhere.url}/api/v2/jobs/x` }).end());
    await client(base.url).json({ family: 'jobs', url: '/api/v2/jobs/x' }).catch(() => undefined);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('links that only resemble the configured origin get no credential (port, scheme, userinfo, host)', async () => {
    const base = await server((_req, res) => json(res, 200, {}));
    const other = await server((_req, res) => json(res, 200, {}));
    const c = client(base.url);
    const { port } = new URL(base.url);
    for (const link of [`https://127.0.0.1:${port}/x`, `${other.url}/x`, `http://127.0.0.1:${port}@localhost:${new URL(other.url).port}/x`, `http://localhost:${port}/x`]) {
      for (const surface of ['jobs', 'legacy', 'models'] as const) expect(c.credentialHeaders(surface, new URL(link)), `${surface} ${link}`).toEqual({});
    }
    await c.json({ family: 'jobs', url: `http://127.0.0.1:${port}@localhost:${new URL(other.url).port}/x` });
    expect(credentialsSeen(other)).toEqual([]);
    expect(c.credentialFor('legacy', new URL(`ws://localhost:${port}/ws`))).toBeUndefined();
    expect(c.credentialFor('legacy', new URL(`ws://127.0.0.1:${port}/ws`))).toBe(KEY);
  });
});

describe('the binary and links to other origins', () => {
  it('a job whose urls.self points at another origin is followed there without the credential', async () => {
    let fake: FakeService | undefined;
    const evil = await server((_req, res) => json(res, 200, { ...fake!.job(), status: 'succeeded' }));
    const links = { self: `${evil.url}/api/v2/jobs/${FAKE_JOB_ID}`, events: `${evil.url}/events`, cancel: `${evil.url}/cancel` };
    fake = await startFakeService({ job: { status: 'running', urls: links } });
    servers.push(fake);
    const res = await wesAt(fake.url, ['jobs', 'watch', FAKE_JOB_ID, '--interval', '0.05', '--no-events'], { apiKey: KEY });
    expect(res.code, res.stderr).toBe(0);
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(evil.requests.length).toBeGreaterThan(0);
    expect(credentialsSeen(evil)).toEqual([]);
  });
});

describe('over TLS: a signed URL redirecting from https down to http', () => {
  let tls: { key: string; cert: string; certPath: string } | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'wes-tls-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    tls = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), certPath: join(dir, 'cert.pem') };
  } catch {
    tls = undefined; // no openssl: the TLS case is skipped (the unit case above covers the rule)
  }

  it.skipIf(!tls)('is refused: exit 1, nothing fetched over http, nothing saved; the https hops were credentialed only on the API (skipped where openssl is missing: no certificate can be made)', async () => {
    const plain = await server((_req, res) => res.writeHead(200).end('LEAKED'));
    const signedHost = await startFakeService({ tls, route: (_req, res) => (res.writeHead(302, { location: `${plain.url}/steal` }).end(), true) });
    servers.push(signedHost);
    const api = await startFakeService({ tls, outputs: [{ name: 'o.bin', body: Buffer.from('bytes'), url: `${signedHost.url}/signed/o.bin?sig=1` }] });
    servers.push(api);
    const out = join(dir, 'out');
    const res = await wesAt(api.url, ['jobs', 'download', FAKE_JOB_ID, out], { apiKey: KEY, env: { NODE_EXTRA_CA_CERTS: tls!.certPath } });
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain('refusing a redirect from https to http');
    expect(plain.requests).toHaveLength(0);
    expect(filesUnder(out)).toEqual(['job.json']);
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(signedHost.requests.length).toBeGreaterThan(0);
    expect(signedHost.requests.every((r) => r.headers.authorization === undefined && r.headers['x-api-key'] === undefined)).toBe(true);
  });
});
