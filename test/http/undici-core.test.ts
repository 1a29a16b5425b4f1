// src/http/undici-core.ts reaches into undici's own files to skip what its index builds. This pins
// those files to the installed undici: they must be the very objects the index exports, and a
// request through them must behave as `request(url, { dispatcher })` does. An undici upgrade that
// moves or changes them fails here.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, ConnectTimeoutError, connectApi, Pool, ProxyAgent, request } from '../../src/http/undici-core.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';

const require = createRequire(import.meta.url);

describe('undici internals used by the HTTP layer', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer((req, res) => {
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'x-echo': 'yes' });
      res.end(JSON.stringify({ method: req.method, url: req.url, body: req.body.toString('utf8') }));
    });
  });
  afterAll(() => server.close());

  it('are the objects undici exports from its index', () => {
    const undici = require('undici') as typeof import('undici');
    expect(require('undici/lib/dispatcher/agent.js')).toBe(undici.Agent);
    const apiRequest = require('undici/lib/api/api-request.js') as unknown;
    expect(require('undici/lib/api/index.js').request).toBe(apiRequest);
    // The index installs the api on every dispatcher: the method is the function we call.
    expect((undici.Dispatcher.prototype as unknown as { request: unknown }).request).toBe(apiRequest);
    expect(Agent).toBe(undici.Agent);
    expect(ConnectTimeoutError).toBe(undici.errors.ConnectTimeoutError);
  });

  it('of the proxy connections are the objects undici exports too (src/http/proxy-dispatch.ts)', () => {
    const undici = require('undici') as typeof import('undici');
    expect(ProxyAgent).toBe(undici.ProxyAgent);
    expect(Pool).toBe(undici.Pool);
    expect(connectApi).toBe(require('undici/lib/api/index.js').connect);
    expect((undici.Dispatcher.prototype as unknown as { connect: unknown }).connect).toBe(require('undici/lib/api/api-connect.js'));
  });

  it('send a GET with a query and a POST with a body, as undici.request does', async () => {
    const agent = new Agent();
    try {
      const got = await request(agent, new URL(`${server.url}/a/b?x=1&y=two`), { method: 'GET', headers: { 'x-test': '1' } });
      expect(got.statusCode).toBe(200);
      expect(got.headers['x-echo']).toBe('yes');
      expect(await got.body.json()).toEqual({ method: 'GET', url: '/a/b?x=1&y=two', body: '' });

      const undici = require('undici') as typeof import('undici');
      const viaIndex = await undici.request(`${server.url}/p`, { method: 'POST', body: 'hello', dispatcher: agent });
      const viaCore = await request(agent, new URL(`${server.url}/p`), { method: 'POST', body: 'hello' });
      expect(viaCore.statusCode).toBe(viaIndex.statusCode);
      expect(await viaCore.body.json()).toEqual(await viaIndex.body.json());
      expect(server.requests.at(-1)!.headers['content-length']).toBe('5');
    } finally {
      await agent.close();
    }
  });
});
