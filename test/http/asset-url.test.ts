// JobsClient.assetUrl: the URL a third party (a partner model) fetches an asset from. The content
// route is asked once, never followed: a redirect's Location (resolved against the route) is the
// answer, a 200 the route itself, unread; a Location that carries a user name or password, or
// none, is refused rather than passed on.
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { JobsClient } from '../../src/clients/jobs/client.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';

let server: TestServer | undefined;
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((thing) => thing.close()));
  await server?.close();
  server = undefined;
});

function clientFor(s: TestServer): JobsClient {
  const http = new HttpClient({ baseUrl: s.url, routerUrl: s.url, apiKey: 'secret-key-0001', retries: 0 });
  opened.push(http);
  return new JobsClient(http);
}

describe('assetUrl', () => {
  it('gives the Location of a redirect, resolved against the route, without following it', async () => {
    server = await startTestServer((_req, res) => res.writeHead(302, { location: '/signed/blob?sig=abc' }).end());
    const url = await clientFor(server).assetUrl('a1');
    expect(url.href).toBe(`${server.url}/signed/blob?sig=abc`);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/v2/assets/a1/content']);
    // The route is the job API's own: it is asked with the credential, which the URL never holds.
    expect(server.requests[0]!.headers.authorization).toBe('Bearer secret-key-0001');
    expect(url.href).not.toContain('secret-key-0001');
  });

  it('gives the content route itself when the server serves the bytes (200), without reading them', async () => {
    server = await startTestServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(4 * 1024 * 1024)));
    const url = await clientFor(server).assetUrl('a b');
    expect(url.href).toBe(`${server.url}/api/v2/assets/a%20b/content`);
    expect(url.username + url.password).toBe('');
  });

  it('refuses a Location that carries a user name or password', async () => {
    server = await startTestServer((_req, res) => res.writeHead(302, { location: 'https://user:pw@storage.example/blob' }).end());
    await expect(clientFor(server).assetUrl('a1')).rejects.toThrow(/user name or password/);
  });

  it('refuses a redirect without a Location', async () => {
    server = await startTestServer((_req, res) => res.writeHead(302).end());
    await expect(clientFor(server).assetUrl('a1')).rejects.toThrow(/without a Location/);
  });
});
