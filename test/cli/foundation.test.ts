// The foundation through the built binary, as a script sees it: configuration precedence,
// secrets, exit codes, usage errors, sanitized server text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { json, startTestServer, type TestServer } from '../helpers/http-server.js';

const SECRET = 'sk-test-ABCDEFGHIJKLMNOP-0123456789';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${SECRET}` && req.headers['x-api-key'] !== SECRET) {
      return json(res, 401, { error: { code: 'unauthorized', message: 'bad key \u001b]0;pwned\u0007\u001b[31mRED' } }, { 'x-service-request-id': 'rid-401' });
    }
    if (req.url!.startsWith('/api/v2/jobs/')) return json(res, 404, { error: { code: 'not_found', message: 'no such job' } });
    return json(res, 200, { data: [], has_more: false, limit: 1, queue_running: [], queue_pending: [] });
  });
});
afterAll(() => server.close());

describe('configuration', () => {
  it('resolves flag > env > profile > default', async () => {
    const cfg = tempConfigDir();
    try {
      expect((await runWes(['config', 'get', 'base_url'], { configDir: cfg.dir })).stdout.trim()).toBe('http://127.0.0.1:8188');
      expect((await runWes(['config', 'set', 'base_url', 'http://profile.test'], { configDir: cfg.dir })).code).toBe(0);
      expect((await runWes(['config', 'get', 'base_url'], { configDir: cfg.dir })).stdout.trim()).toBe('http://profile.test');
      const env = { WES_BASE_URL: 'http://env.test' };
      expect((await runWes(['config', 'get', 'base_url'], { configDir: cfg.dir, env })).stdout.trim()).toBe('http://env.test');
      expect((await runWes(['config', 'get', 'base_url', '--base-url', 'http://flag.test'], { configDir: cfg.dir, env })).stdout.trim()).toBe('http://flag.test');
      const list = await runWes(['config', 'list', '--json'], { configDir: cfg.dir, env });
      const row = JSON.parse(list.stdout).settings.find((r: { key: string }) => r.key === 'base_url');
      expect(row).toEqual({ key: 'base_url', value: 'http://env.test', source: 'WES_BASE_URL', effective: 'http://env.test' });
    } finally {
      cfg.cleanup();
    }
  });

  it('stores credentials with mode 0600 and never prints them whole', async () => {
    const cfg = tempConfigDir();
    try {
      const login = await runWes(['auth', 'login', '--with-token', '--base-url', server.url], { configDir: cfg.dir, input: `${SECRET}\n` });
      expect(login.code).toBe(0);
      expect(login.stderr).toContain('saved');
      expect(statSync(join(cfg.dir, 'config.json')).mode & 0o777).toBe(0o600);
      const status = await runWes(['auth', 'status', '--verbose'], { configDir: cfg.dir });
      expect(status.code).toBe(0);
      expect(status.stdout).toContain('…6789 (35 chars)');
      expect(status.stdout + status.stderr).not.toContain(SECRET);
      expect(status.stderr).toContain('authorization: Bearer REDACTED');
      const logout = await runWes(['auth', 'logout'], { configDir: cfg.dir });
      expect(logout.stderr).toContain('removed api_key');
      const after = await runWes(['config', 'get', 'api_key'], { configDir: cfg.dir });
      expect(after.code).toBe(1);
    } finally {
      cfg.cleanup();
    }
  });

  it('auth logout removes the partner key and token too, and says so', async () => {
    const cfg = tempConfigDir();
    try {
      for (const [key, value] of [['partner_key', 'pk-secret-123456'], ['partner_token', 'pt-secret-123456']]) {
        expect((await runWes(['config', 'set', key!, value!], { configDir: cfg.dir })).code).toBe(0);
      }
      const logout = await runWes(['auth', 'logout', '--json'], { configDir: cfg.dir });
      expect(JSON.parse(logout.stdout).removed).toEqual(['partner_key', 'partner_token']);
      expect(logout.stderr).toContain('removed partner_key and partner_token');
      for (const key of ['partner_key', 'partner_token']) expect((await runWes(['config', 'get', key], { configDir: cfg.dir })).code).toBe(1);
    } finally {
      cfg.cleanup();
    }
  });

  it('selects profiles with profiles use, and refuses an unknown one', async () => {
    const cfg = tempConfigDir();
    try {
      await runWes(['--profile', 'prod', 'config', 'set', 'base_url', 'http://prod.test'], { configDir: cfg.dir });
      expect((await runWes(['profiles', 'use', 'prod'], { configDir: cfg.dir })).code).toBe(0);
      expect((await runWes(['config', 'get', 'base_url'], { configDir: cfg.dir })).stdout.trim()).toBe('http://prod.test');
      const listed = JSON.parse((await runWes(['profiles', 'list', '--json'], { configDir: cfg.dir })).stdout);
      expect(listed).toContainEqual({ name: 'prod', active: true, base_url: 'http://prod.test', has_api_key: false });
      const bad = await runWes(['profiles', 'use', 'nope'], { configDir: cfg.dir });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('no profile named nope');
    } finally {
      cfg.cleanup();
    }
  });
});

describe('exit codes and errors', () => {
  it('exits 4 when the server refuses the credential, with sanitized server text', async () => {
    const res = await runWes(['auth', 'status', '--base-url', server.url, '--api-key', 'wrong-key-000000000']);
    expect(res.code).toBe(4);
    expect(res.stdout).toContain('rejected');
    expect(res.stdout + res.stderr).not.toMatch(/\u001b|\u0007/);
  });

  it('exits 1 with a hint naming wes dev-server when nothing listens', async () => {
    const res = await runWes(['auth', 'status', '--base-url', 'http://127.0.0.1:9']);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('unreachable');
  });

  it('exits 2 on usage errors, with a JSON error object under --json', async () => {
    const res = await runWes(['jobz']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("unknown command 'jobz'");
    const flag = await runWes(['config', 'list', '--bogus-flag', '--json']);
    expect(flag.code).toBe(2);
    expect(JSON.parse(flag.stderr).error).toMatchObject({ code: 'usage' });
    const badUrl = await runWes(['config', 'get', 'base_url', '--base-url', 'ftp://x']);
    expect(badUrl.code).toBe(2);
    const badDeployment = await runWes(['config', 'list', '--deployment', 'Not_A_Label']);
    expect(badDeployment.code).toBe(2);
    expect(badDeployment.stderr).toContain('DNS label');
  });

  it('prints the exit-code table and topics', async () => {
    const res = await runWes(['help', 'exit-codes']);
    expect(res.code).toBe(0);
    for (const code of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 130]) expect(res.stdout).toMatch(new RegExp(`^\\s+${code}\\s`, 'm'));
    expect((await runWes(['help', 'environment'])).stdout).toContain('WES_API_KEY');
    expect((await runWes(['help', 'config', 'set'])).stdout).toContain('Usage: wes config set');
  });

  it('prints the version and help fast paths', async () => {
    expect((await runWes(['--version'])).stdout).toMatch(/^wes \d+\.\d+\.\d+/);
    const help = await runWes(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Global options:');
  });
});

describe('profiles, settings and exit codes: edge cases', () => {
  it('refuses a profile name that could leave the config folder', async () => {
    const res = await runWes(['--profile', '../../evil', 'config', 'list']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('invalid profile name');
    expect((await runWes(['config', 'list'], { env: { WES_PROFILE: 'a/b' } })).code).toBe(2);
  });

  it('never echoes a URL password in a usage error', async () => {
    const res = await runWes(['--base-url', 'ftp://user:s3cret-pw@127.0.0.1/', 'config', 'list']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('user:REDACTED@');
    expect(res.stderr).not.toContain('s3cret-pw');
  });

  it('says when a setting is not set, and shows a group\'s help when it is named without a subcommand (exit 0, as bare wes)', async () => {
    const unset = await runWes(['config', 'get', 'partner_key']);
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain('partner_key is not set');
    const group = await runWes(['jobs']);
    expect(group.code).toBe(0);
    expect(group.stdout).toContain('Usage: wes jobs');
    const bare = await runWes([]);
    expect(bare.code).toBe(0);
    expect(bare.stdout).toContain('Usage: wes');
  });

  it('prints the exit-code table as JSON with --json', async () => {
    const res = await runWes(['help', 'exit-codes', '--json']);
    const table = JSON.parse(res.stdout) as Array<{ code: number; meaning: string }>;
    expect(table.map((r) => r.code)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 130, 141, 143]);
  });

  it('verifies the credential it has just saved, not the one it started with', async () => {
    const cfg = tempConfigDir();
    try {
      const res = await runWes(['auth', 'login', '--with-token', '--base-url', server.url], { configDir: cfg.dir, input: `${SECRET}\n` });
      expect(res.code).toBe(0);
      expect(res.stderr).toMatch(/✓ jobs: accepted/);
      expect(res.stderr).not.toContain('rejected');
    } finally {
      cfg.cleanup();
    }
  });
});
