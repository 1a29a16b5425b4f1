// A newcomer's first settings (issue 29, items 1, 4, 5 and 12): every key is checked when it is set,
// a bad value already stored never blocks the commands that repair it, interactive login saves the
// base URL it offered, an unknown --profile is refused instead of falling back to the defaults, and
// a missing key is said before (or with) the server's 401.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runProgram, runWes, tempConfigDir } from '../helpers/cli.js';
import { testIO } from '../helpers/test-io.js';
import { until } from '../helpers/until.js';
import { startFast } from '../helpers/dev-server.js';
import type { DevServerHandle } from '../../src/dev-server/index.js';

let cfg: ReturnType<typeof tempConfigDir>;
beforeEach(() => {
  cfg = tempConfigDir();
});
afterEach(() => cfg.cleanup());

const wes = (args: string[], env: Record<string, string> = {}) => runWes(args, { configDir: cfg.dir, env });
const stored = () => JSON.parse(readFileSync(join(cfg.dir, 'config.json'), 'utf8')) as { current_profile?: string; profiles: Record<string, Record<string, string>> };
/** A config file as another tool (or an older wes) might have left it. */
const writeStore = (data: unknown) => writeFileSync(join(cfg.dir, 'config.json'), JSON.stringify(data), { mode: 0o600 });

describe('config set checks every key', () => {
  it.each([
    ['read_timeout', 'abc'],
    ['read_timeout', '-5'],
    ['read_timeout', '1e9'],
    ['engine', 'comfy'],
    ['deployment', 'Not_A_Label'],
    ['base_url', 'ftp://x'],
    ['router_url', 'not a url'],
    ['engine_url', 'http://h?x=1'],
    ['api_key', 'sk-line\nbreak'],
    ['router_token', 'tök€n'],
  ])('refuses %s %j with exit 2 and stores nothing', async (key, value) => {
    const res = await wes(['config', 'set', key, value]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: /m);
    expect(() => stored()).toThrow(); // no file written
  });

  it('refuses an empty value and names config unset', async () => {
    const res = await wes(['config', 'set', 'read_timeout', '']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('wes config unset read_timeout');
  });

  it('names the URL that was meant when the scheme is missing', async () => {
    const res = await wes(['config', 'set', 'base_url', 'localhost:18231']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('has no scheme');
    expect(res.stderr).toContain('http://localhost:18231');
  });

  it('stores values that check', async () => {
    for (const [key, value] of [['read_timeout', '0.5'], ['engine', 'self-hosted'], ['base_url', 'https://gw.example/deployment/{deployment}'], ['deployment', 'my-deploy']]) {
      expect((await wes(['config', 'set', key!, value!])).code).toBe(0);
    }
    expect(stored().profiles.default).toMatchObject({ read_timeout: '0.5', engine: 'self-hosted', deployment: 'my-deploy' });
  });
});

describe('a bad stored value', () => {
  beforeEach(() => writeStore({ current_profile: 'default', profiles: { default: { read_timeout: 'abc', base_url: 'http://127.0.0.1:9' } } }));

  it('stops a command that uses it, naming the repair command', async () => {
    const res = await wes(['jobs', 'get', 'any-id']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('profile key read_timeout');
    expect(res.stderr).toContain('wes config set read_timeout 30');
    expect(res.stderr).toContain('wes config unset read_timeout');
  });

  it('never blocks config list, get, set, unset, profiles list or auth', async () => {
    const list = await wes(['config', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/read_timeout\tabc\tprofile key read_timeout is set aside/);
    expect(list.stderr).toContain('warning: read timeout "abc"');
    expect((await wes(['config', 'get', 'base_url'])).code).toBe(0);
    expect((await wes(['profiles', 'list'])).code).toBe(0);
    expect((await wes(['auth', 'status', '--offline'])).code).toBe(0);
    expect((await wes(['auth', 'logout'])).code).toBe(0);
    expect((await wes(['config', 'unset', 'read_timeout'])).code).toBe(0);
    writeStore({ profiles: { default: { read_timeout: 'abc' } } });
    expect((await wes(['config', 'set', 'read_timeout', '60'])).code).toBe(0);
    expect(stored().profiles.default!.read_timeout).toBe('60');
    expect((await wes(['jobs', 'list'])).code).toBe(0);
  });

  it('in another profile, the repair command names that profile', async () => {
    writeStore({ current_profile: 'default', profiles: { default: {}, prod: { engine: 'comfy' } } });
    const res = await wes(['--profile', 'prod', 'legacy', 'queue']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('wes --profile prod config set engine auto');
  });

  it('from the environment, names the variable', async () => {
    const res = await wes(['jobs', 'get', 'x'], { WES_READ_TIMEOUT: 'soon' });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('unset it');
    // A flag is checked even by the commands that tolerate stored values: it was typed just now.
    expect((await wes(['config', 'list', '--read-timeout', 'soon'])).code).toBe(2);
  });
});

describe('a config file written by hand', () => {
  it('reads a number or true/false as its text: a good one is used, a bad one is a setting that does not check, which config repairs', async () => {
    writeStore({ current_profile: 'default', profiles: { default: { read_timeout: 30, base_url: 42, deployment: null } } });
    const list = await wes(['config', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/read_timeout\t30\tprofile/);
    expect(list.stdout).toMatch(/base_url\t42\tprofile key base_url is set aside/);
    const get = await wes(['jobs', 'get', 'any-id']);
    expect(get.code).toBe(2);
    expect(get.stderr).toContain('profile key base_url');
    expect(get.stderr).not.toMatch(/is not a function/);
    expect((await wes(['config', 'set', 'base_url', 'http://127.0.0.1:9'])).code).toBe(0);
    expect(stored().profiles.default).toEqual({ read_timeout: 30, base_url: 'http://127.0.0.1:9', deployment: null });
    expect((await wes(['config', 'get', 'read_timeout'])).stdout).toBe('30\n');
  });

  it.each([
    [[], 'it holds an array, not an object'],
    [{ profiles: 'x' }, 'profiles is not an object of profiles'],
    [{ profiles: { default: 'x' } }, 'profile "default" is not an object'],
    [{ profiles: { default: { read_timeout: { seconds: 30 } } } }, 'default.read_timeout is an object, not a value'],
    [{ current_profile: 7 }, 'current_profile is not a string'],
    [{ current_profile: null, profiles: { default: [] } }, 'profile "default" is not an object'],
  ])('refuses %j as it refuses invalid JSON: exit 2, what is wrong and how to fix it', async (data, what) => {
    writeStore(data);
    for (const args of [['config', 'list'], ['profiles', 'list'], ['jobs', 'get', 'any-id']]) {
      const res = await wes(args);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(`is not a wes config file: ${what}`);
      expect(res.stderr).toContain('fix or remove it');
    }
  });
});

describe('config list shows what is in effect', () => {
  it('shows defaults instead of blanks', async () => {
    const res = await wes(['config', 'list']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('base_url\thttp://127.0.0.1:8188\tdefault');
    expect(res.stdout).toContain('router_url\thttp://127.0.0.1:8188\tdefault (the base URL)');
    expect(res.stdout).toContain('read_timeout\t30\tdefault');
    expect(res.stdout).toContain('engine\tauto\tdefault');
    const json = JSON.parse((await wes(['config', 'list', '--json'])).stdout) as { settings: Array<{ key: string; value: unknown; effective: unknown }> };
    expect(json.settings.find((r) => r.key === 'read_timeout')).toEqual({ key: 'read_timeout', value: null, source: null, effective: '30' });
  });
});

describe('profiles', () => {
  it('refuses an unknown --profile or WES_PROFILE, except for the commands that create one', async () => {
    writeStore({ current_profile: 'prod', profiles: { prod: { base_url: 'http://127.0.0.1:9' } } });
    const typo = await wes(['--profile', 'prdo', 'jobs', 'list']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('no profile named prdo (from --profile)');
    expect(typo.stderr).toContain('profiles: prod');
    expect((await wes(['config', 'list'], { WES_PROFILE: 'prdo' })).code).toBe(2);
    // the built-in default needs no entry
    expect((await wes(['--profile', 'default', 'config', 'list'])).code).toBe(0);
    expect((await wes(['--profile', 'edge', 'config', 'set', 'deployment', 'd1'])).code).toBe(0);
    expect(stored().profiles.edge).toEqual({ deployment: 'd1' });
  });

  it('says when auth login makes the profile it saved the current one', async () => {
    const first = await runWes(['--profile', 'prod', 'auth', 'login', '--no-verify', '--with-token'], { configDir: cfg.dir, input: 'sk-prod-key-0000000000\n' });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('profile prod is now the current profile');
    expect(stored().current_profile).toBe('prod');
    const second = await runWes(['--profile', 'staging', 'auth', 'login', '--no-verify', '--with-token'], { configDir: cfg.dir, input: 'sk-staging-key-00000000\n' });
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain('is now the current profile');
    expect(stored().current_profile).toBe('prod');
  });
});

describe('interactive auth login', () => {
  it('saves the base URL it offered when Enter accepts it', async () => {
    const io = testIO({ stdinTTY: true, stderrTTY: true });
    const env = { WES_CONFIG_DIR: cfg.dir, WES_BASE_URL: 'http://offered.test:8188' } as NodeJS.ProcessEnv;
    const done = runProgram(['auth', 'login', '--no-verify'], { io, env });
    const stdin = io.stdin as unknown as NodeJS.WritableStream;
    for (const question of ['Base URL [http://offered.test:8188]: ', 'API key', 'Router credential']) {
      await until(() => io.stderr.text().includes(question), question);
      stdin.write(question === 'API key' ? 'sk-typed-key-0000000000\r' : '\r');
    }
    expect(await done).toBe(0);
    expect(stored().profiles.default).toEqual({ base_url: 'http://offered.test:8188', api_key: 'sk-typed-key-0000000000' });
  });
});

describe('no key configured', () => {
  let server: DevServerHandle;
  beforeAll(async () => {
    server = await startFast();
  });
  afterAll(() => server.close());

  it('a 401 to a request that carried no key names every way to give one', async () => {
    const res = await wes(['jobs', 'get', 'some-job'], { WES_BASE_URL: server.url });
    expect(res.code).toBe(4);
    expect(res.stderr).toContain('no API key was sent');
    expect(res.stderr).toContain('wes auth login');
    expect(res.stderr).toContain('WES_API_KEY');
    expect(res.stderr).toContain('--api-key');
  });

  it('the model router is not asked without a credential', async () => {
    const asked = () => server.state.requestCounts.get('GET /v1/models') ?? 0;
    const before = asked();
    const res = await wes(['models', 'list'], { WES_BASE_URL: server.url });
    expect(res.code).toBe(4);
    expect(res.stderr).toContain('no credential for the models API family');
    expect(res.stderr).toContain('WES_API_KEY');
    // The call itself is not sent; one look at the catalog without a credential tells a server that
    // has a router (this one: the error stands) from one that has none (a ComfyUI engine: said so).
    expect(asked()).toBe(before + 1);
    expect((await wes(['models', 'list'], { WES_BASE_URL: server.url, WES_API_KEY: server.apiKey! })).code).toBe(0);
    expect(asked()).toBe(before + 2);
  });

  it('a hand-written number or null in the file stays read as text and as unset after a write in the same run (auth login verifying, logout)', async () => {
    writeStore({ current_profile: 'default', profiles: { default: { read_timeout: 30, router_token: null, base_url: server.url } } });
    // login saves the key, then reads the settings again to check the key against the server.
    const login = await runWes(['auth', 'login', '--with-token'], { configDir: cfg.dir, input: `${server.apiKey}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).not.toMatch(/is not a function/);
    const logout = await wes(['auth', 'logout']);
    expect(logout.code).toBe(0);
    expect(logout.stderr).not.toContain('router_token');
  });

  it('auth status after logout says what to do', async () => {
    await runWes(['auth', 'login', '--no-verify', '--with-token', '--base-url', server.url], { configDir: cfg.dir, input: `${server.apiKey}\n` });
    expect((await wes(['auth', 'logout'])).code).toBe(0);
    const res = await wes(['auth', 'status']);
    expect(res.code).toBe(4);
    expect(res.stderr).toContain('no API key is configured');
    expect(res.stderr).toContain('WES_API_KEY');
  });
});
