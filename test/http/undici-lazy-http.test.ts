// The build keeps node:http out of undici's load (scripts/build-plugins.mjs edits two of its files)
// and wes passes Node's header limit itself (nodeMaxHeaderSize); undici's node:assert loads only
// when an assertion fails. This bundles the two edited files
// with the build's own plugin and checks they behave as undici's originals: `destroy` still treats
// an http.IncomingMessage specially, a Client without maxHeaderSize still gets Node's limit. Then
// the built CLI: a header above 16 KiB is refused by default and accepted when Node's
// --max-http-header-size says so, as undici reading node:http would do.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { createRequire } from 'node:module';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeMaxHeaderSize } from '../../src/http/undici-core.js';
// @ts-expect-error the build's plugins are plain JavaScript
import { skipUnusedBuiltins } from '../../scripts/build-plugins.mjs';
import { runWes } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';

const require = createRequire(import.meta.url);

interface Edited {
  util: { destroy(stream: unknown, err?: Error): void };
  Client: new (url: string, opts?: object) => object;
}

describe('undici as the build edits it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wes-undici-'));
  let edited: Edited;
  beforeAll(async () => {
    const entry = join(dir, 'entry.cjs');
    writeFileSync(entry, `module.exports = { util: require('undici/lib/core/util.js'), Client: require('undici/lib/dispatcher/client.js') };`);
    const out = join(dir, 'edited.cjs');
    await build({ entryPoints: [entry], outfile: out, bundle: true, platform: 'node', format: 'cjs', nodePaths: [join(import.meta.dirname, '../../node_modules')], plugins: [skipUnusedBuiltins], logLevel: 'error' });
    edited = require(out) as Edited;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

  it("undici's assert loads node:assert only to throw its AssertionError", async () => {
    const lib = join(dir, 'undici/lib');
    mkdirSync(lib, { recursive: true });
    writeFileSync(join(lib, 'uses-assert.js'), "module.exports = require('node:assert');");
    const out = join(dir, 'assert.cjs');
    await build({ entryPoints: [join(lib, 'uses-assert.js')], outfile: out, bundle: true, platform: 'node', format: 'cjs', plugins: [skipUnusedBuiltins], logLevel: 'error' });
    const lazy = require(out) as (value: unknown, message?: string) => void;
    expect(lazy).not.toBe(require('node:assert'));
    expect(lazy(1)).toBeUndefined();
    expect(() => lazy(0, 'broken')).toThrow(expect.objectContaining({ name: 'AssertionError', code: 'ERR_ASSERTION', message: 'broken' }));
    expect(() => lazy(null)).toThrow(expect.objectContaining({ name: 'AssertionError', code: 'ERR_ASSERTION' }));
    // undici calls assert and nothing of it, in every file of the parts wes bundles:
    const undiciLib = join(dirname(require.resolve('undici/package.json')), 'lib');
    for (const part of ['core', 'api', 'dispatcher', 'handler', 'util']) {
      for (const file of readdirSync(join(undiciLib, part)).filter((f) => f.endsWith('.js'))) {
        expect(readFileSync(join(undiciLib, part, file), 'utf8'), `${part}/${file}`).not.toMatch(/\bassert\.\w/);
      }
    }
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
