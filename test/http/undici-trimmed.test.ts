// The build leaves four parts of undici out of the bundle or out of the JavaScript (see
// skipUnusedBuiltins in scripts/build-plugins.mjs): its HTTP/2 client, its fetch body (FormData),
// its SOCKS proxy agent, and the base64 text of its WebAssembly HTTP parser, written beside the chunks as bytes. This pins
// the undici sources that make the first two unreachable for wes, checks the written parser is
// byte for byte the one undici ships, and makes requests through the built CLI with each parser.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error the build's plugins are plain JavaScript
import { LLHTTP_WASM, llhttpWasmFiles } from '../../scripts/build-plugins.mjs';
import { bytesWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { wesAgainst } from '../cli/jobs-env.js';
import { proxySettings } from '../../src/http/proxy-env.js';

const require = createRequire(import.meta.url);
const undici = (file: string) => readFileSync(require.resolve(`undici/lib/${file}`), 'utf8');
const DIST = join(import.meta.dirname, '../../dist/chunks');

describe('undici as the build trims it', () => {
  it('runs its HTTP/2 client only for a connection that negotiated h2, offered only with allowH2 or useH2c', () => {
    const client = undici('dispatcher/client.js');
    expect(client.match(/connectH2\b/g)).toHaveLength(2); // required once, called once:
    expect(client).toMatch(/socket\.alpnProtocol === 'h2'\s*\?\s*connectH2\(client, socket\)\s*:\s*connectH1\(client, socket\)/);
    const connect = undici('core/connect.js');
    expect(connect).toContain("ALPNProtocols: allowH2 ? ['http/1.1', 'h2'] : ['http/1.1']");
    expect(connect.match(/alpnProtocol = 'h2'/g)).toHaveLength(1);
    expect(connect).toMatch(/if \(useH2c === true\) \{\s*socket\.alpnProtocol = 'h2'/);
    const ours = readFileSync(join(import.meta.dirname, '../../src/http/client.ts'), 'utf8');
    expect(ours).not.toMatch(/allowH2|useH2c/);
  });

  it('requires its fetch body only to send a FormData, which wes never sends', () => {
    const h1 = undici('dispatcher/client-h1.js');
    expect(h1.match(/require\('\.\.\/web\/fetch\/body\.js'\)/g)).toHaveLength(1);
    expect(h1).toMatch(/if \(util\.isFormDataLike\(body\)\) \{\s*if \(!extractBody\) \{\s*extractBody = require\('\.\.\/web\/fetch\/body\.js'\)\.extractBody/);
    expect(readFileSync(join(import.meta.dirname, '../../src/http/multipart.ts'), 'utf8')).not.toMatch(/new FormData/);
  });

  it('requires its SOCKS agent only to reach a socks:// proxy, which wes refuses', () => {
    const proxy = undici('dispatcher/proxy-agent.js');
    expect(proxy.match(/require\('\.\/socks5-proxy-agent'\)/g)).toHaveLength(1);
    expect(proxy.match(/new Socks5ProxyAgent\(/g)).toHaveLength(1);
    expect(proxy).toMatch(/if \(this\[kProxy\]\.protocol === 'socks5:' \|\| this\[kProxy\]\.protocol === 'socks:'\) \{\s*return new Socks5ProxyAgent\(/);
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
