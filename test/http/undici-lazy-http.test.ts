// The build keeps node:http out of undici's load (the lazy-http hunks of patches/undici@<version>.patch)
// and wes passes Node's header limit itself (nodeMaxHeaderSize); undici's node:assert loads only
// when an assertion fails (the lazy-assert substitution of scripts/build-plugins.mjs). This bundles
// the two patched files as the build does and checks they behave as undici's originals: `destroy`
// still treats an http.IncomingMessage specially, a Client without maxHeaderSize still gets Node's
// limit, and loading them loads neither node:http nor node:assert. Then the built CLI: a header
// above 16 KiB is refused by default and accepted when Node's --max-http-header-size says so, as
// undici reading node:http would do.
import { spawnSync } from 'node:child_process';
import * as http from 'node:http';
import { createRequire } from 'node:module';
import { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeMaxHeaderSize } from '../../src/http/undici-core.js';
import { runWes } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';
import { bundleUndici, removeBundles, type Bundled } from './undici-bundle.js';

const require = createRequire(import.meta.url);

interface Edited {
  util: { destroy(stream: unknown, err?: Error): void };
  Client: new (url: string, opts?: object) => object;
}

/** The Node modules that loading `file` loads, in a fresh process. */
function builtinsLoadedBy(file: string): string[] {
  const run = spawnSync(process.execPath, ['-e', `const before = new Set(process.moduleLoadList); require(${JSON.stringify(file)}); console.log(JSON.stringify(process.moduleLoadList.filter((m) => !before.has(m))))`], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as string[];
}

describe('undici as the build edits it', () => {
  const entry = "module.exports = { util: require('undici/lib/core/util.js'), Client: require('undici/lib/dispatcher/client.js') };";
  let bundled: Bundled<Edited>;
  let edited: Edited;
  beforeAll(async () => {
    bundled = await bundleUndici<Edited>(entry);
    edited = bundled.exports;
  });
  afterAll(removeBundles);

  it('loads neither node:http nor node:assert, which undici as published loads', async () => {
    const loaded = builtinsLoadedBy(bundled.file);
    expect(loaded).toContain('NativeModule net'); // the list is real
    expect(loaded).not.toContain('NativeModule http');
    expect(loaded).not.toContain('NativeModule assert');
    const unpatched = builtinsLoadedBy((await bundleUndici(entry, { off: ['lazy-http'] })).file);
    expect(unpatched).toContain('NativeModule http');
  });

  it('destroy() detaches the socket of an http.IncomingMessage, and of no other stream', () => {
    const message = new http.IncomingMessage(new Socket());
    edited.util.destroy(message);
    expect(message.destroyed).toBe(true);
    expect(message.socket).toBeNull();

    const other = Object.assign(new PassThrough(), { socket: 'kept' });
    edited.util.destroy(other);
    expect(other.destroyed).toBe(true);
    expect(other.socket).toBe('kept');
  });

  it("a Client given no maxHeaderSize takes node:http's, one given a size keeps it", () => {
    const limit = (client: object) => {
      const key = Object.getOwnPropertySymbols(client).find((s) => s.description === 'max headers size')!;
      return (client as Record<symbol, unknown>)[key];
    };
    expect(limit(new edited.Client('http://127.0.0.1:9'))).toBe(http.maxHeaderSize);
    expect(limit(new edited.Client('http://127.0.0.1:9', { maxHeaderSize: 1234 }))).toBe(1234);
  });

  it("undici's assert loads node:assert to throw its AssertionError, or for any of its methods", async () => {
    const lazy = (await bundleUndici<(value: unknown, message?: string) => void>("module.exports = require('node:assert');", { as: 'undici/lib/uses-assert.js' })).exports;
    expect(lazy).not.toBe(require('node:assert'));
    expect(lazy(1)).toBeUndefined();
    expect(() => lazy(0, 'broken')).toThrow(expect.objectContaining({ name: 'AssertionError', code: 'ERR_ASSERTION', message: 'broken' }));
    expect(() => lazy(null)).toThrow(expect.objectContaining({ name: 'AssertionError', code: 'ERR_ASSERTION' }));
    // undici calls assert and nothing of it today; a version that calls a method still works.
    const methods = lazy as unknown as typeof import('node:assert');
    expect(() => methods.strictEqual(1, 2)).toThrow(expect.objectContaining({ code: 'ERR_ASSERTION' }));
    expect(methods.deepStrictEqual({ a: 1 }, { a: 1 })).toBeUndefined();
  });

  it("nodeMaxHeaderSize() is node:http's limit", () => {
    expect(nodeMaxHeaderSize()).toBe(http.maxHeaderSize);
  });
});

describe('response headers against Node’s limit, in the built CLI', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-big': 'x'.repeat(20 * 1024) });
      res.end('{"ok":true}');
    });
  });
  afterAll(() => server.close());

  const get = (env: Record<string, string> = {}) =>
    runWes(['api', 'GET', '/api/v2/jobs', '--retries', '0'], { spawn: true, env: { WES_BASE_URL: server.url, WES_API_KEY: 'k', ...env } });

  it('refuses a 20 KiB header by default, as Node allows 16 KiB', async () => {
    const res = await get();
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('Headers Overflow');
    expect(res.stdout).toBe('');
  });

  it('accepts it when NODE_OPTIONS raises --max-http-header-size', async () => {
    const res = await get({ NODE_OPTIONS: '--max-http-header-size=65536' });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ ok: true });
  });
});
