// What wes keeps on disk is private: the profile file (which holds keys) is 0600 in a 0700
// folder, also when it existed before with looser bits, and the schema cache is 0600 files in
// 0700 folders, even under a permissive umask.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childProcessEnv, runWes, WES_BIN } from '../helpers/cli.js';
import { filesUnder, useFaultServer } from '../faults/kit.js';

const mode = (path: string) => statSync(path).mode & 0o777;
const KEY = 'sk-private-files-KEY-1234';

describe('files wes writes are private', () => {
  const fx = useFaultServer({ apiKey: KEY });
  const root = mkdtempSync(join(tmpdir(), 'wes-private-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('the profile file is 0600 in a 0700 folder, and stays 0600 across rewrites', async () => {
    const cfg = join(root, 'new', 'cfg');
    const login = await runWes(['auth', 'login', '--with-token', '--base-url', fx.server.url], { configDir: cfg, input: `${KEY}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(mode(cfg)).toBe(0o700);
    expect(mode(join(cfg, 'config.json'))).toBe(0o600);
    chmodSync(join(cfg, 'config.json'), 0o644);
    const set = await runWes(['config', 'set', 'deployment', 'abc'], { configDir: cfg });
    expect(set.code, set.stderr).toBe(0);
    expect(mode(join(cfg, 'config.json'))).toBe(0o600);
  });

  it('the schema cache: 0600 files in 0700 folders, even with umask 000', async () => {
    const cfg = join(root, 'cache-cfg');
    const env: NodeJS.ProcessEnv = { ...childProcessEnv(), WES_CONFIG_DIR: cfg, WES_BASE_URL: fx.server.url, WES_API_KEY: KEY };
    for (const k of ['WES_PROFILE', 'WES_ROUTER_URL', 'WES_ROUTER_TOKEN']) delete env[k];
    // A shell sets the umask for the child, as a careless login session would. (Asynchronously:
    // the dev-server answering it runs in this process.)
    await promisify(execFile)('sh', ['-c', `umask 000 && exec "${process.execPath}" "${WES_BIN}" models schema dev/echo`], { env });
    // The schema, and which router routes answered there (remembered per router URL).
    const cached = filesUnder(join(cfg, 'cache'));
    expect(cached).toEqual([expect.stringMatching(/^default\/router-api\/[0-9a-f]{32}\.json$/), join('default', 'schemas', 'dev', 'echo.json')]);
    for (const file of cached) expect(mode(join(cfg, 'cache', file)), file).toBe(0o600);
    for (const folder of ['', 'default', join('default', 'schemas'), join('default', 'schemas', 'dev'), join('default', 'router-api')]) {
      expect(mode(join(cfg, 'cache', folder)), `cache/${folder}`).toBe(0o700);
    }
  });

  it('a profile file written before with loose bits is tightened by the next write', async () => {
    const cfg = join(root, 'loose');
    mkdirSync(cfg, { recursive: true });
    writeFileSync(join(cfg, 'config.json'), JSON.stringify({ profiles: { default: { api_key: KEY } } }), { mode: 0o666 });
    chmodSync(join(cfg, 'config.json'), 0o666);
    const res = await runWes(['config', 'set', 'base_url', fx.server.url], { configDir: cfg });
    expect(res.code, res.stderr).toBe(0);
    expect(mode(join(cfg, 'config.json'))).toBe(0o600);
  });
});
