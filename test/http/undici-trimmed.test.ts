// The build leaves four parts of undici out of the bundle or out of the JavaScript: its HTTP/2
// client, its fetch body (FormData) and its SOCKS proxy agent (the no-h2, no-formdata and no-socks
// hunks of patches/undici@<version>.patch), and the base64 text of its WebAssembly HTTP parser,
// written beside the chunks as bytes (the wasm-file substitution of scripts/build-plugins.mjs).
// This bundles undici's files as the build does and checks each part is gone and that reaching
// it says so (while undici as published would have used it), checks the written parser is byte
// for byte the one undici ships, and makes requests through the built CLI with each parser.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client as UndiciClient, Dispatcher, ProxyAgent as UndiciProxyAgent } from 'undici';
// @ts-expect-error the build's plugins are plain JavaScript
import { LLHTTP_WASM, llhttpWasmFiles } from '../../scripts/build-plugins.mjs';
import { bytesWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';
import { wesAgainst } from '../cli/jobs-env.js';
import { proxySettings } from '../../src/http/proxy-env.js';
import { bundleUndici, removeBundles, ROOT, type Bundled } from './undici-bundle.js';

const require = createRequire(import.meta.url);
const DIST = join(ROOT, 'dist/chunks');

interface Trimmed {
  Client: typeof UndiciClient;
  ProxyAgent: typeof UndiciProxyAgent;
  request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
}
const ENTRY = `module.exports = {
  Client: require('undici/lib/dispatcher/client.js'),
  ProxyAgent: require('undici/lib/dispatcher/proxy-agent.js'),
  request: require('undici/lib/api/api-request.js'),
};`;

describe('undici as the build trims it', () => {
  let server: TestServer;
  let trimmed: Bundled<Trimmed>;
  let whole: Bundled<Trimmed>;
  beforeAll(async () => {
    server = await startTestServer((req, res) => res.end(`${req.method} ${req.body.length}`));
    trimmed = await bundleUndici<Trimmed>(ENTRY);
    whole = await bundleUndici<Trimmed>(ENTRY, { off: ['no-h2', 'no-formdata', 'no-socks'] });
  });
  afterAll(async () => {
    await server.close();
    removeBundles();
  });

  /** One request to the server through `dispatcher` (of `bundle`): its answer's text, or the error's message. */
  async function requestThrough(bundle: Bundled<Trimmed>, dispatcher: Dispatcher, body?: unknown): Promise<string> {
    try {
      const res = await bundle.exports.request.call(dispatcher, { origin: server.url, path: '/', method: body === undefined ? 'GET' : 'POST', body: body as string });
      return await res.body.text();
    } catch (err) {
      return (err as Error).message;
    } finally {
      await dispatcher.destroy();
    }
  }
  const requestWith = (bundle: Bundled<Trimmed>, options: object, body?: unknown) => requestThrough(bundle, new bundle.exports.Client(server.url, options), body);

  it('carries no HTTP/2 client, which undici reaches only on a connection that negotiated h2 (allowH2, useH2c), which wes never asks for', async () => {
    expect(whole.undiciFiles).toContain('lib/dispatcher/client-h2.js');
    expect(trimmed.undiciFiles).not.toContain('lib/dispatcher/client-h2.js');
    expect(await requestWith(trimmed, {})).toBe('GET 0');
    expect(await requestWith(trimmed, { useH2c: true })).toBe('HTTP/2 is left out of the wes bundle (undici offers h2 only with allowH2 or useH2c)');
    const ours = readFileSync(join(ROOT, 'src/http/client.ts'), 'utf8');
    expect(ours).not.toMatch(/allowH2|useH2c/);
  });

  it('carries no fetch body, which undici needs only to send a FormData, which wes never sends', async () => {
    expect(whole.undiciFiles).toContain('lib/web/fetch/body.js');
    expect(trimmed.undiciFiles.filter((file) => file.startsWith('lib/web/'))).toEqual([]);
    expect(await requestWith(trimmed, {}, 'four')).toBe('POST 4');
    const form = new FormData();
    form.set('a', 'b');
    expect(await requestWith(whole, {}, form)).not.toMatch(/left out/);
    expect(await requestWith(trimmed, {}, form)).toBe('FormData request bodies are left out of the wes bundle');
    expect(readFileSync(join(ROOT, 'src/http/multipart.ts'), 'utf8')).not.toMatch(/new FormData/);
  });

  it('carries no SOCKS agent, which undici needs only for a socks:// proxy, which wes refuses', async () => {
    expect(whole.undiciFiles).toContain('lib/dispatcher/socks5-proxy-agent.js');
    expect(trimmed.undiciFiles.filter((file) => /socks/.test(file))).toEqual([]);
    const socks = (bundle: Bundled<Trimmed>) => requestThrough(bundle, new bundle.exports.ProxyAgent(`socks5://${new URL(server.url).host}`));
    expect(await socks(whole)).not.toMatch(/left out/);
    expect(await socks(trimmed)).toBe('SOCKS proxies are left out of the wes bundle (wes takes http:// and https:// proxies only)');
    expect(() => proxySettings({ HTTPS_PROXY: 'socks5://proxy:1080' })).toThrow(/wes speaks to http:\/\/ and https:\/\/ proxies/);
  });

  it("writes the parser's WebAssembly byte for byte as undici's modules give it", () => {
    const files = llhttpWasmFiles() as Array<[string, Buffer]>;
    expect(files.map(([name]) => name).sort()).toEqual(Object.values(LLHTTP_WASM).sort());
    for (const [name, bytes] of files) {
      expect(bytes.subarray(0, 4).toString('latin1'), name).toBe('\0asm'); // a WebAssembly module
      expect(readFileSync(join(DIST, name)).equals(bytes), name).toBe(true);
    }
    expect(files[0]![1].equals(require('undici/lib/llhttp/llhttp_simd-wasm.js'))).toBe(true);
    expect(files[1]![1].equals(require('undici/lib/llhttp/llhttp-wasm.js'))).toBe(true);
  });

  describe('the built CLI', () => {
    const ctx = useDevServer({});
    const wes = wesAgainst(() => ctx.server);

    it('reads a job with the parser undici picks, and when it loads both (JEST_WORKER_ID)', async () => {
      const id = (await submitJob(ctx.server, bytesWorkflow(64))).body.id as string;
      await waitForJob(ctx.server, `/api/v2/jobs/${id}`, ['succeeded']);
      for (const env of [{}, { JEST_WORKER_ID: '1' }]) {
        const res = await wes(['jobs', 'get', id, '--json'], { spawn: true, env });
        expect(res.code, res.stderr).toBe(0);
        expect(JSON.parse(res.stdout).id).toBe(id);
      }
    });
  });
});
