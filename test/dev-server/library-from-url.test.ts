// The dev-server's cloud fetching remote files for the asset library, at the HTTP level: the
// refusals openapi-cloud.yaml lists for uploadAsset (400, 413, 415) and createAssetDownload (400),
// a stand-in origin that is not loopback never reached, and nothing of the caller's headers passed on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { startFast, v1Auth } from '../helpers/dev-server.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';

describe('dev-server cloud: the asset library from a URL', () => {
  let files: TestServer;
  let server: DevServerHandle;
  beforeAll(async () => {
    files = await startTestServer((req, res) => {
      // huggingface.co sends a file on to its CDN; /away sends it to a host that is neither loopback nor named.
      if (req.url === '/hop') return res.writeHead(302, { location: 'https://cdn-lfs.huggingface.co/small.bin' }).end();
      if (req.url === '/away') return res.writeHead(302, { location: 'http://192.0.2.1:9/x.bin' }).end();
      if (req.url === '/small.bin') return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(100, 2));
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(4096, 1));
    });
    server = await startFast({ deployment: 'cloud', maxUploadBytes: 1024, remoteOrigins: { 'civitai.com': 'http://192.0.2.1:9', 'huggingface.co': files.origin, 'cdn-lfs.huggingface.co': files.origin } });
  });
  afterAll(async () => {
    await server.close();
    await files.close();
  });
  const post = (path: string, body: string, type = 'application/json', headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': type, ...v1Auth(server), ...headers }, body });

  it('uploadAsset: 415 for a body neither multipart nor JSON, 400 without a name, 413 above the upload limit', async () => {
    expect((await post('/api/assets', 'x', 'text/plain')).status).toBe(415);
    const nameless = await post('/api/assets', JSON.stringify({ url: `${files.origin}/a.bin` }));
    expect([nameless.status, ((await nameless.json()) as { code: string }).code]).toEqual([400, 'invalid_request']);
    const big = await post('/api/assets', JSON.stringify({ url: `${files.origin}/a.bin`, name: 'a.bin' }), 'application/json', { authorization: 'Bearer secret-of-the-caller', cookie: 'c=1' });
    expect(big.status).toBe(413);
    const last = files.requests.at(-1)!;
    expect([last.headers.authorization, last.headers.cookie, last.headers['x-api-key']]).toEqual([undefined, undefined, undefined]);
  });

  it('createAssetDownload: 400 for another host; a stand-in origin that is not loopback is never reached (422)', async () => {
    const other = await post('/api/assets/download', JSON.stringify({ source_url: 'https://example.com/m.safetensors' }));
    expect([other.status, ((await other.json()) as { code: string }).code]).toEqual([400, 'unsupported_source']);
    const far = await post('/api/assets/download', JSON.stringify({ source_url: 'https://civitai.com/api/download/models/1' }));
    expect(far.status).toBe(422);
    expect(((await far.json()) as { message: string }).message).toMatch(/could not reach civitai\.com/);
  });

  it('a redirect is followed only where the first URL could go: a named CDN through its stand-in, any other host refused unreached', async () => {
    const viaCdn = await post('/api/assets', JSON.stringify({ url: 'https://huggingface.co/hop', name: 'hop.bin' }));
    expect(viaCdn.status, await viaCdn.clone().text()).toBeLessThan(300);
    expect(files.requests.map((r) => r.url).slice(-2)).toEqual(['/hop', '/small.bin']);
    const away = await post('/api/assets', JSON.stringify({ url: 'https://huggingface.co/away', name: 'away.bin' }));
    expect(away.status).toBe(422);
    expect(((await away.json()) as { message: string }).message).toMatch(/could not reach 192\.0\.2\.1:9/);
  });
});
