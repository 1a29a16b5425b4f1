// The setup and tool verbs (auth, api, dev-server, and those with no options of their own) read
// their options once, typed: a credential given twice, two contradicting flags, a value outside
// its choices or a malformed number is a usage error (exit 2) before any request, and nothing is
// saved or started. The global options keep being checked as before.
import { describe, expect, it } from 'vitest';
import { readsStdin } from '../../src/commands/api/syntax.js';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { useDevServer } from '../helpers/dev-server.js';
import { totalRequests } from './models-env.js';

const dev = useDevServer();

/** `args` against the dev-server: exit 2, `message` on stderr, nothing on stdout, no request. */
async function refused(args: string[], message: RegExp, opts: { configDir?: string; input?: string } = {}): Promise<void> {
  const before = totalRequests(dev.server);
  const res = await runWes(args, { ...opts, env: { WES_BASE_URL: dev.server.url, WES_ROUTER_URL: dev.server.url, WES_API_KEY: dev.server.apiKey, WES_ROUTER_TOKEN: 'dev' } });
  expect(res.code, res.stderr).toBe(2);
  expect(res.stderr).toMatch(message);
  expect(res.stdout).toBe('');
  expect(totalRequests(dev.server)).toBe(before);
}

describe('auth', () => {
  it('login: a credential both on standard input and as a flag is refused, and nothing is saved', async () => {
    const cfg = tempConfigDir();
    try {
      await refused(['auth', 'login', '--with-token', '--api-key', 'k-flag'], /--with-token reads the API key from standard input, and --api-key gives one too/, { configDir: cfg.dir, input: 'k-stdin\n' });
      await refused(['--api-key', 'k-flag', 'auth', 'login', '--with-token', '--no-verify'], /--with-token.*--api-key/, { configDir: cfg.dir, input: 'k-stdin\n' });
      await refused(['auth', 'login', '--router-token-stdin', '--router-token', 'r-flag'], /--router-token-stdin reads the router credential.*--router-token gives one too/, { configDir: cfg.dir, input: 'r\n' });
      const after = await runWes(['config', 'get', 'api_key'], { configDir: cfg.dir });
      expect(after.code).toBe(1);
    } finally {
      cfg.cleanup();
    }
  });

  it('login --with-token --no-verify saves the key without asking the service; status --offline asks nothing', async () => {
    const cfg = tempConfigDir();
    try {
      const env = { WES_BASE_URL: dev.server.url };
      const before = totalRequests(dev.server);
      const login = await runWes(['auth', 'login', '--with-token', '--no-verify'], { configDir: cfg.dir, env, input: 'k-offline-0123456789\n' });
      expect(login.code, login.stderr).toBe(0);
      const status = await runWes(['auth', 'status', '--offline', '--json'], { configDir: cfg.dir, env });
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout).values.api_key.source).toMatch(/^profile/);
      expect(totalRequests(dev.server)).toBe(before);
    } finally {
      cfg.cleanup();
    }
  });
});

describe('api', () => {
  it('--paginate with --include, a bad --surface, -f/-F/-H without their form: exit 2 before the request', async () => {
    await refused(['api', 'GET', '/v1/models', '--paginate', '--include'], /'--paginate' cannot be used with option '-i, --include'/);
    await refused(['api', 'GET', '/v1/models', '--surface', 'billing'], /--surface <family>.*'billing' is invalid.*jobs, models, legacy/);
    await refused(['api', 'GET', '/v1/models', '-f', 'limit'], /-f takes KEY=VALUE, got "limit"/);
    await refused(['api', 'GET', '/v1/models', '-F', '=5'], /-F takes KEY=VALUE/);
    await refused(['api', 'GET', '/v1/models', '-H', 'Accept text/plain'], /-H takes "Name: value"/);
    await refused(['api', 'GET', '/v1/models', '--input', ''], /--input <file>.*must not be empty/);
  });

  it('standard input is read by one reader: --input - and -F KEY=@- together are refused', async () => {
    await refused(['api', 'POST', '/api/prompt', '--input', '-', '-F', 'note=@-'], /standard input can be read once/, { input: '{}' });
    await refused(['api', 'POST', '/api/prompt', '-F', 'a=@-', '-F', 'b=@-'], /standard input can be read once/, { input: 'x' });
    expect(readsStdin('a=@-')).toBe(true);
    expect(readsStdin('a=@file')).toBe(false);
  });

  it('well-formed -f, -F and -H arrive parsed: -F is applied after -f, so its limit is the one sent', async () => {
    const res = await runWes(['api', 'GET', '/v1/models', '-f', 'limit=5', '-F', 'limit=2', '-H', 'X-Trace: abc'], { env: { WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey } });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).data).toHaveLength(2);
  });
});

describe('dev-server', () => {
  it('malformed numbers, an unknown --surface, and self-hosted flags on another surface: exit 2, nothing started', async () => {
    for (const [args, message] of [
      [['--port', 'abc'], /--port <port>.*'abc' is invalid.*whole number/],
      [['--port', '70000'], /--port <port>.*from 0 to 65535/],
      [['--slots', '0'], /--slots <n>.*at least 1/],
      [['--step-ms', '-1'], /--step-ms <ms>.*at least 0/],
      [['--retention', '1.5'], /--retention <seconds>.*whole number/],
      [['--surface', 'edge'], /--surface <deployment>.*'edge' is invalid.*cloud, serverless, self-hosted/],
      [['--engine-only'], /--engine-only applies to --surface self-hosted only \(this is --surface cloud\)/],
      [['--surface', 'serverless', '--token', 't'], /--token applies to --surface self-hosted only \(this is --surface serverless\)/],
    ] as Array<[string[], RegExp]>) {
      await refused(['dev-server', '--quiet-log', ...args], message);
    }
  });
});

describe('global options and verbs without options of their own', () => {
  it('a malformed global number is still exit 2 before any request', async () => {
    await refused(['--max-answer-mib', '-1', 'models', 'show', 'dev/echo'], /--max-answer-mib/);
    await refused(['--retries', 'many', 'legacy', 'queue'], /--retries must be a whole number/);
  });

  it('with --json a broken rule is the usage error object on stderr, as every usage error', async () => {
    const res = await runWes(['--json', 'legacy', 'status', 'p-1', '--interval', '2'], { env: { WES_BASE_URL: dev.server.url } });
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(JSON.parse(res.stderr)).toEqual({ error: { code: 'usage', message: '--interval only applies with --wait', status: null, request_id: null, details: null } });
  });

  it('a flag another verb has is an unknown option here', async () => {
    await refused(['config', 'list', '--reveal'], /unknown option '--reveal'/);
    await refused(['models', 'show', 'dev/echo', '--refresh'], /unknown option '--refresh'/);
    await refused(['doctor', '--offline'], /unknown option '--offline'/);
  });
});
