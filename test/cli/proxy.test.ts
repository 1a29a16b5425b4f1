// Proxies and private certificate authorities (issue 29, "networks with a proxy"): every request
// of a command, the job's event stream, the signed output downloads and the v1 WebSocket go through
// the proxy HTTPS_PROXY / HTTP_PROXY name, NO_PROXY and loopback go direct, credentials in the
// proxy URL are used and never printed, a 407 is said plainly, and a server signed by a private CA
// is trusted through NODE_EXTRA_CA_CERTS (plain TLS failures are said in one sentence, item 13).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { startFast } from '../helpers/dev-server.js';
import { startTestProxy, type TestProxy } from '../helpers/proxy.js';
import { makePrivateCa } from '../helpers/private-ca.js';
import { json, startTestServer, type TestServer } from '../helpers/http-server.js';
import type { DevServerHandle } from '../../src/dev-server/index.js';

const FLOW = {
  '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 255 } },
  '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'proxied' } },
};

let server: DevServerHandle;
let dir: string;
let flow: string;
beforeAll(async () => {
  server = await startFast();
  dir = mkdtempSync(join(tmpdir(), 'wes-proxy-'));
  flow = join(dir, 'flow.json');
  writeFileSync(flow, JSON.stringify(FLOW));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (extra: Record<string, string>) => ({ WES_BASE_URL: server.url, WES_API_KEY: server.apiKey!, ...extra });

describe('through an HTTP proxy', () => {
  let proxy: TestProxy;
  beforeAll(async () => {
    proxy = await startTestProxy();
  });
  afterAll(() => proxy.close());

  it('sends every request of a submit, its event stream and its downloads through HTTP_PROXY', async () => {
    proxy.calls.length = 0;
    const out = join(dir, 'out-proxied');
    const res = await runWes(['jobs', 'submit', flow, '--wait', '--download', out], { env: env({ HTTP_PROXY: proxy.url, WES_PROXY_LOOPBACK: '1' }) });
    expect(res.stderr).toContain('succeeded');
    expect(res.code).toBe(0);
    expect(readdirSync(out)).toContain('job.json');
    const targets = proxy.calls.map((c) => `${c.method} ${c.target}`);
    expect(targets).toContain(`POST ${server.url}/api/v2/jobs`);
    expect(targets.some((t) => /^GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/jobs\/[^/]+\/events/.test(t))).toBe(true);
    // the outputs come from signed URLs on the dev-server's second port: through the proxy too
    expect(targets.some((t) => t.startsWith('GET ') && !t.startsWith(`GET ${server.url}`))).toBe(true);
    expect(proxy.calls.every((c) => c.method !== 'CONNECT')).toBe(true); // http: targets are forwarded, not tunnelled
  });

  it('sends the v1 WebSocket through a CONNECT tunnel', async () => {
    proxy.calls.length = 0;
    const res = await runWes(['legacy', 'prompt', flow, '--ws', '--quiet'], { env: env({ HTTP_PROXY: proxy.url, WES_PROXY_LOOPBACK: '1', WES_ENGINE: 'cloud' }) });
    expect(res.code).toBe(0);
    const port = new URL(server.url).port;
    expect(proxy.calls).toContainEqual(expect.objectContaining({ method: 'CONNECT', target: `127.0.0.1:${port}` }));
    expect(proxy.calls.map((c) => `${c.method} ${c.target}`)).toContain(`POST ${server.url}/api/prompt`);
  });

  it('never proxies loopback unless WES_PROXY_LOOPBACK=1 asks, and honours NO_PROXY', async () => {
    proxy.calls.length = 0;
    expect((await runWes(['jobs', 'submit', flow], { env: env({ HTTP_PROXY: proxy.url }) })).code).toBe(0);
    expect((await runWes(['jobs', 'submit', flow], { env: env({ http_proxy: proxy.url, WES_PROXY_LOOPBACK: '1', NO_PROXY: 'example.com, 127.0.0.0/8' }) })).code).toBe(0);
    expect((await runWes(['jobs', 'submit', flow], { env: env({ HTTP_PROXY: proxy.url, WES_PROXY_LOOPBACK: '1', no_proxy: `127.0.0.1:${new URL(server.url).port}` }) })).code).toBe(0);
    expect((await runWes(['jobs', 'submit', flow], { env: env({ HTTP_PROXY: proxy.url, WES_PROXY_LOOPBACK: '1', NO_PROXY: '*' }) })).code).toBe(0);
    expect(proxy.calls).toEqual([]);
    // HTTPS_PROXY serves https: targets only
    expect((await runWes(['jobs', 'submit', flow], { env: env({ HTTPS_PROXY: proxy.url, WES_PROXY_LOOPBACK: '1' }) })).code).toBe(0);
    expect(proxy.calls).toEqual([]);
  });

  it('refuses a proxy URL it cannot use, naming the variable', async () => {
    const res = await runWes(['jobs', 'get', 'x'], { env: env({ HTTP_PROXY: 'socks5://user:hidden-pw@127.0.0.1:1080', WES_PROXY_LOOPBACK: '1' }) });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('HTTP_PROXY');
    expect(res.stderr).not.toContain('hidden-pw');
  });

  it('says when the proxy cannot be reached', async () => {
    const res = await runWes(['jobs', 'get', 'x', '--retries', '0'], { env: env({ HTTP_PROXY: 'http://127.0.0.1:9', WES_PROXY_LOOPBACK: '1' }) });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('could not connect to the proxy http://127.0.0.1:9 (from HTTP_PROXY');
  });
});

describe('through a proxy that asks for credentials', () => {
  let proxy: TestProxy;
  beforeAll(async () => {
    proxy = await startTestProxy({ user: 'ci-bot', password: 's3cret:p@ss' });
  });
  afterAll(() => proxy.close());

  it('sends the credentials in the proxy URL, and never prints them', async () => {
    proxy.calls.length = 0;
    const res = await runWes(['jobs', 'submit', flow, '--wait', '--verbose'], { env: env({ HTTP_PROXY: proxy.urlWithCredentials, WES_PROXY_LOOPBACK: '1' }) });
    expect(res.code).toBe(0);
    expect(proxy.calls.length).toBeGreaterThan(1);
    expect(proxy.calls.every((c) => !c.refused)).toBe(true);
    expect(res.stderr).toContain('through proxy http://ci-bot:REDACTED@127.0.0.1');
    expect(res.stderr + res.stdout).not.toMatch(/s3cret|p%40ss|czNjcmV0/);
  });

  it('says a 407 plainly, at once, without the password', async () => {
    for (const [url, said] of [[proxy.url, 'asks for credentials'], [proxy.urlWithCredentials.replace('s3cret', 'wrong'), 'refused the credentials in its URL']] as const) {
      proxy.calls.length = 0;
      const res = await runWes(['jobs', 'get', 'some-job'], { env: env({ HTTP_PROXY: url, WES_PROXY_LOOPBACK: '1' }) });
      expect(res.code).toBe(4);
      expect(res.stderr).toContain(`${said} (407 Proxy Authentication Required)`);
      expect(res.stderr).toContain('http://USER:PASSWORD@HOST:PORT');
      expect(res.stderr).not.toContain('wrong');
      expect(proxy.calls).toHaveLength(1); // not retried: it cannot heal
    }
  });

  it('says a 407 to the WebSocket tunnel plainly too', async () => {
    const res = await runWes(['legacy', 'watch', 'no-such-prompt', '--quiet'], { env: env({ HTTP_PROXY: proxy.url, WES_PROXY_LOOPBACK: '1', WES_ENGINE: 'cloud' }) });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('407');
  });
});

const ca = makePrivateCa();

describe.skipIf(!ca)('a server signed by a private certificate authority (skipped where openssl is missing: no certificate can be made)', () => {
  let tlsServer: Server;
  let origin: string;
  let proxy: TestProxy;
  const seen: string[] = [];
  beforeAll(async () => {
    tlsServer = createHttpsServer({ key: ca!.key, cert: ca!.cert }, (req, res) => {
      seen.push(req.url!);
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'not_found', message: 'no such job' } }));
    });
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    origin = `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
    proxy = await startTestProxy();
  });
  afterAll(async () => {
    await proxy.close();
    tlsServer.closeAllConnections();
    await new Promise((resolve) => tlsServer.close(resolve));
    ca!.remove();
  });

  // src/runtime/command-builtins.ts: the second run loads node:tls and what it needs before wes's
  // V8 flags, as the first run noted; loaded in the wrong order, node:tls lost its TLSSocket and
  // every connection dropped.
  it('a later run that loads the TLS modules first, as the first run noted, still connects', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'wes-tls-cache-'));
    try {
      const env = { WES_BASE_URL: origin, WES_API_KEY: 'k', NODE_EXTRA_CA_CERTS: ca!.caPath, WES_CACHE_DIR: cache };
      for (const run of ['first', 'second']) {
        const res = await runWes(['jobs', 'get', 'job-0'], { env });
        expect(res.stderr, run).toContain('no such job');
        expect(res.code, run).toBe(5);
      }
      const [build] = readdirSync(join(cache, 'code-cache'));
      expect((JSON.parse(readFileSync(join(cache, 'code-cache', build!, 'builtins.json'), 'utf8')) as Record<string, string[]>)['jobs get']).toContain('node:tls');
    } finally {
      rmSync(cache, { recursive: true, force: true });
      seen.length = 0; // the next test counts the server's requests from none
    }
  });

  it('is trusted through NODE_EXTRA_CA_CERTS, directly and through an HTTPS_PROXY tunnel', async () => {
    const direct = await runWes(['jobs', 'get', 'job-1'], { env: { WES_BASE_URL: origin, WES_API_KEY: 'k', NODE_EXTRA_CA_CERTS: ca!.caPath } });
    expect(direct.stderr).toContain('no such job');
    expect(direct.code).toBe(5);
    proxy.calls.length = 0;
    const tunnelled = await runWes(['jobs', 'get', 'job-2'], { env: { WES_BASE_URL: origin, WES_API_KEY: 'k', NODE_EXTRA_CA_CERTS: ca!.caPath, HTTPS_PROXY: proxy.url, WES_PROXY_LOOPBACK: '1' } });
    expect(tunnelled.code).toBe(5);
    expect(proxy.calls).toEqual([expect.objectContaining({ method: 'CONNECT', target: origin.replace('https://', '') })]);
    expect(seen).toEqual(['/api/v2/jobs/job-1', '/api/v2/jobs/job-2']);
  });

  it('without it, says the certificate is not trusted and how to trust it, in one attempt', async () => {
    seen.length = 0;
    const res = await runWes(['jobs', 'get', 'job-3'], { env: { WES_BASE_URL: origin, WES_API_KEY: 'k', NODE_EXTRA_CA_CERTS: '/nonexistent/ca.pem' } });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`the certificate of ${origin} is signed by a certificate authority Node does not know`);
    expect(res.stderr).toContain('NODE_EXTRA_CA_CERTS=/path/to/ca.pem');
    expect(res.stderr).not.toMatch(/retrying/);
    expect(seen).toEqual([]);
  });
});

describe('one plain sentence for a URL that cannot work (item 13)', () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await startTestServer((_req, res) => json(res, 404, { error: { code: 'not_found', message: 'x' } }));
  });
  afterAll(() => plain.close());

  it('https:// to a plain HTTP server: said at once, with the http:// URL', async () => {
    const https = plain.url.replace('http://', 'https://');
    const res = await runWes(['jobs', 'get', 'x'], { env: { WES_BASE_URL: https, WES_API_KEY: 'k' } });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${https} does not speak TLS`);
    expect(res.stderr).toContain(`use ${plain.url} instead`);
    expect(res.stderr).not.toMatch(/SSL routines|retrying/);
  });

  it('a base URL without its scheme: the URL it was meant to be', async () => {
    const res = await runWes(['jobs', 'get', 'x'], { env: { WES_BASE_URL: 'localhost:18231' } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('has no scheme');
    expect(res.stderr).toContain('http://localhost:18231');
  });
});
