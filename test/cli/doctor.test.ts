// wes doctor through the binary: every check against a real dev-server, refused and unknown
// credentials, an unreachable server, settings that do not resolve, a config file others can
// read, and a server whose clock is off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { useDevServer } from '../helpers/dev-server.js';
import { json, startTestServer, type TestServer } from '../helpers/http-server.js';

interface Check {
  check: string;
  surface: string | null;
  status: 'pass' | 'warn' | 'fail' | 'skip';
  detail: string;
  hint: string | null;
  exit_code: number;
}

const dev = useDevServer({ notEnabledTokens: ['router-not-enabled-token'] });

function find(checks: Check[], check: string, surface: string | null = null): Check {
  const found = checks.find((c) => c.check === check && c.surface === surface);
  if (!found) throw new Error(`no ${check} ${surface} check in ${JSON.stringify(checks)}`);
  return found;
}

async function doctor(args: string[], opts: Parameters<typeof runWes>[1] = {}) {
  const res = await runWes(['doctor', '--json', ...args], opts);
  return { ...res, checks: JSON.parse(res.stdout) as Check[] };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

describe('wes doctor', () => {
  it('passes every check against a dev-server with the right key, and prints a table', async () => {
    const { code, checks } = await doctor(['--base-url', dev.server.url, '--api-key', dev.server.apiKey!]);
    expect(code).toBe(0);
    expect(checks.map((c) => `${c.check}:${c.surface ?? ''}`)).toEqual([
      'settings:', 'config_file:', 'reachable:jobs', 'credential:jobs', 'reachable:router', 'credential:router', 'reachable:legacy', 'credential:legacy', 'clock:', 'build:',
    ]);
    expect(checks.every((c) => c.status === 'pass' && c.exit_code === 0)).toBe(true);
    expect(find(checks, 'credential', 'legacy').detail).toBe(`accepted: X-API-Key ******** (11 chars) from --api-key, sent only to ${dev.server.url}`);
    expect(JSON.stringify(checks)).not.toContain(dev.server.apiKey);

    const table = await runWes(['doctor', '--base-url', dev.server.url], { env: { WES_API_KEY: dev.server.apiKey } });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^credential\tjobs\tpass\taccepted: Bearer \S.* from WES_API_KEY, sent only to http:\/\/127\.0\.0\.1:\d+$/m);
    expect(table.stdout).toMatch(new RegExp(`^reachable\\tjobs\\tpass\\t${dev.server.url} answered in \\d+ ms$`, 'm'));
    expect(table.stderr).toContain('no check failed');
  });

  it('says last which build runs and which blake3 it hashes with', async () => {
    const { checks } = await doctor(['--base-url', dev.server.url, '--api-key', dev.server.apiKey!]);
    expect(find(checks, 'build').detail).toMatch(new RegExp(`^wes \\d+\\.\\d+\\.\\d+\\S*, npm package, node ${process.version} ${process.platform}-${process.arch}; blake3 (native \\(.*blake-hash.*\\)|WASM \\(the native addon is not installed or does not load here\\))$`));
    const wasm = await doctor(['--base-url', dev.server.url, '--api-key', dev.server.apiKey!], { env: { WES_BLAKE3: 'wasm' } });
    expect(find(wasm.checks, 'build').detail).toMatch(/; blake3 WASM \(WES_BLAKE3=wasm\)$/);
  });

  it('exits 4 when the credential is refused, with the hint once for every surface it applies to', async () => {
    const res = await runWes(['doctor', '--base-url', dev.server.url, '--api-key', 'not-the-right-key-0000']);
    expect(res.code).toBe(4);
    expect(res.stdout).toMatch(/^credential\tjobs\tfail\t/m);
    expect(res.stdout).toContain('…0000 (22 chars)');
    expect(res.stderr.match(/^hint/gm)).toHaveLength(1);
    expect(res.stderr).toContain('credential jobs, credential models, credential legacy');
    expect(res.stderr).toContain('3 of 10 checks failed');
  });

  it('reports a router that is not switched on for the credential as a failed credential', async () => {
    const { code, checks } = await doctor(['--base-url', dev.server.url, '--api-key', dev.server.apiKey!, '--router-token', 'router-not-enabled-token']);
    expect(code).toBe(4);
    const router = find(checks, 'credential', 'router');
    expect(router.status).toBe('fail');
    expect(router.detail).toMatch(/^refused Bearer …oken \(24 chars\) from --router-token, sent only to http:\/\/127\.0\.0\.1:\d+: /);
    expect(router.hint).toContain('not switched on');
    expect(find(checks, 'credential', 'jobs').status).toBe('pass');
  });

  it('exits 1 when nothing answers, saying which URL was tried and where it came from', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const { code, checks } = await doctor([], { env: { WES_BASE_URL: url } });
    expect(code).toBe(1);
    const jobs = find(checks, 'reachable', 'jobs');
    expect(jobs.status).toBe('fail');
    expect(jobs.hint).toContain(`wes tried ${url}, the base URL from WES_BASE_URL`);
    expect(find(checks, 'credential', 'jobs').status).toBe('skip');
    expect(find(checks, 'clock').status).toBe('skip');
  });

  it('exits 2 and checks nothing else when the settings do not resolve', async () => {
    const { code, checks } = await doctor(['--deployment', 'Not_A_Label']);
    expect(code).toBe(2);
    expect(find(checks, 'settings').status).toBe('fail');
    expect(find(checks, 'settings').detail).toContain('not a DNS label');
    expect(checks.slice(1, -1).every((c) => c.status === 'skip')).toBe(true); // the last row, build, is a fact
  });

  it('fails the config file check when other users can read it', async () => {
    const cfg = tempConfigDir();
    try {
      const file = join(cfg.dir, 'config.json');
      writeFileSync(file, JSON.stringify({ profiles: { default: { base_url: dev.server.url, api_key: dev.server.apiKey } } }));
      chmodSync(file, 0o644);
      const { code, checks } = await doctor([], { configDir: cfg.dir });
      expect(code).toBe(1);
      const check = find(checks, 'config_file');
      expect(check.status).toBe('fail');
      expect(check.detail).toBe(`mode 0644, other users can read it: ${file}`);
      expect(check.hint).toBe(`chmod 600 '${file}'`);
      expect(find(checks, 'credential', 'jobs').detail).toMatch(/from profile key api_key, sent only to http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      cfg.cleanup();
    }
  });
});

describe('wes doctor against a purpose-built server', () => {
  let skewed: TestServer;
  beforeAll(async () => {
    // Every surface answers as it should, but with a Date five minutes in the past; the router
    // route is missing.
    skewed = await startTestServer((req, res) => {
      const headers = { date: new Date(Date.now() - 300_000).toUTCString() };
      if (req.url!.startsWith('/api/v2/jobs/')) return json(res, 404, { error: { code: 'not_found', message: 'no such job' } }, headers);
      if (req.url === '/api/queue') return json(res, 200, { queue_running: [], queue_pending: [] }, headers);
      return json(res, 404, { detail: 'Not Found' }, headers);
    });
  });
  afterAll(() => skewed.close());

  it('warns about clock skew without failing; a family the server does not serve beside those it does is a warning', async () => {
    const { code, checks } = await doctor(['--base-url', skewed.url]);
    const clock = find(checks, 'clock');
    expect(clock.status).toBe('warn');
    expect(clock.detail).toMatch(/^local clock is 30\d s ahead of the server \((jobs|models|legacy)\)$/);
    expect(clock.hint).toContain('clock');
    const router = find(checks, 'reachable', 'router');
    expect(router.status).toBe('warn');
    expect(router.detail).toMatch(/not served by .*, which serves jobs and legacy/);
    expect(router.hint).toContain('--router-url');
    expect(code).toBe(0);
  });
});

describe('doctor: a URL password stays hidden, and a plain 404 is not the job API', () => {
  it('never prints a password from the base URL, even in --json', async () => {
    const base = new URL(dev.server.url);
    base.username = 'user';
    base.password = 'pw-s3cret-123';
    const res = await doctor([], { env: { WES_BASE_URL: base.toString(), WES_API_KEY: 'wes-dev-key' } });
    expect(res.stdout + res.stderr).not.toContain('pw-s3cret-123');
  });

  it('does not take any 404 for the job API accepting the key', async () => {
    const plain = await startTestServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
    try {
      const res = await doctor([], { env: { WES_BASE_URL: plain.url, WES_API_KEY: 'wrong-key-00000000' } });
      expect(find(res.checks, 'reachable', 'jobs').status).toBe('fail');
      expect(find(res.checks, 'reachable', 'jobs').detail).toContain('not as the job API');
      expect(res.code).not.toBe(0);
    } finally {
      await plain.close();
    }
  });
});
