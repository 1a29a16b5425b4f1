// No output of wes ever holds a secret: many commands of every surface, with --verbose, in human
// and --json modes, on success and on every kind of error (wrong and forbidden keys, a refused
// connection, 5xx, a stall past --timeout, a refused WebSocket handshake), with distinctive test
// keys given by environment, by flag and by profile. Every byte captured is scanned for each key
// and for its middle (masked forms may show the first and last 4 characters, never more).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addFaults, imageWorkflow, submitJob, waitForJob } from '../helpers/dev-server.js';
import { runWes, tempConfigDir, type RunResult } from '../helpers/cli.js';
import { sampleWorkflow } from '../dev-server/legacy-kit.js';
import { useFaultServer } from '../faults/kit.js';

const API_KEY = 'sk-live-SECRETAPIKEY-7f3a9c2e51';
const ROUTER = 'rt-SECRETROUTERTOKEN-4b8d1e6f';
const PARTNER = 'pk-SECRETPARTNERKEY-9a2c77';
const WRONG = 'sk-WRONGKEYSECRET-11aa2233';
const FORBIDDEN = 'sk-FORBIDDENSECRET-22bb4455';
const USERINFO = 'SECRETPASSWORDINURL-66';
const SECRETS = [API_KEY, ROUTER, PARTNER, WRONG, FORBIDDEN, USERINFO];

/** Where a secret shows in `text`: the whole of it or its middle part. */
function leaks(text: string): string[] {
  return SECRETS.flatMap((s) => [s, s.slice(4, -4)].filter((part) => text.includes(part)).map((part) => `${s} (as ${part})`));
}

describe('secrets never reach the output', () => {
  const fx = useFaultServer({ apiKey: API_KEY, routerTokens: [ROUTER], forbiddenTokens: [FORBIDDEN], stepMs: 2 });
  const dir = mkdtempSync(join(tmpdir(), 'wes-secrets-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const runs: Array<{ args: string[]; res: RunResult }> = [];

  const env = (extra: Record<string, string> = {}) => ({ WES_BASE_URL: fx.server.url, WES_API_KEY: API_KEY, WES_ROUTER_TOKEN: ROUTER, WES_PARTNER_KEY: PARTNER, ...extra });
  async function run(args: string[], opts: { env?: Record<string, string>; input?: string; configDir?: string } = {}): Promise<RunResult> {
    const res = await runWes(args, { env: opts.env ?? env(), input: opts.input, configDir: opts.configDir, timeoutMs: 20_000 });
    runs.push({ args, res });
    return res;
  }
  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  it('successful commands of every surface, --verbose, human and --json', async () => {
    const flow = file('flow.json', imageWorkflow({ prefix: 'secret', steps: 2 }));
    const submitted = await run(['jobs', 'submit', flow, '--wait', '--download', join(dir, 'out'), '--verbose']);
    expect(submitted.code, submitted.stderr).toBe(0);
    const id = submitted.stdout.trim().split('\n')[0]!;
    const png = file('in.png', Buffer.from('not really a png').toString());
    const upload = await run(['assets', 'upload', png, '--json', '--verbose']);
    expect(upload.code, upload.stderr).toBe(0);
    const asset = JSON.parse(upload.stdout).id as string;
    const legacyFlow = file('v1.json', sampleWorkflow(2, 'v1secret'));
    const results = await Promise.all([
      run(['jobs', 'get', id, '--verbose']),
      run(['jobs', 'get', id, '--json', '--verbose']),
      run(['jobs', 'watch', id, '--verbose', '--json']),
      run(['jobs', 'download', id, join(dir, 'again'), '--verbose', '--json']),
      run(['jobs', 'logs', id, '--verbose']),
      run(['jobs', 'cancel', id, '--verbose']),
      run(['assets', 'get', asset, '--verbose']),
      run(['assets', 'download', asset, join(dir, 'asset.bin'), '--verbose']),
      run(['legacy', 'prompt', legacyFlow, '--ws', '--download', join(dir, 'v1'), '--verbose']),
      run(['legacy', 'queue', '--verbose', '--json']),
      run(['legacy', 'object-info', 'SaveImage', '--verbose']),
      run(['models', 'list', '--verbose']),
      run(['models', 'show', 'dev/echo', '--verbose', '--json']),
      run(['models', 'schema', 'dev/echo', '--verbose']),
      run(['models', 'run', 'dev/echo', '-d', '{"prompt":"hello"}', '--verbose']),
      run(['api', 'GET', `/api/v2/jobs/${id}`, '--include', '--verbose']),
      run(['auth', 'status']),
      run(['auth', 'status', '--json']),
      run(['config', 'list']),
      run(['config', 'get', 'api_key']),
      run(['config', 'get', 'partner_key', '--json']),
      run(['doctor', '--verbose']),
    ]);
    const failed = results.map((r, i) => [i, r.code, r.stderr.slice(0, 300)] as const).filter(([, code]) => code !== 0);
    expect(failed).toEqual([]);
  });

  it('error paths: wrong and forbidden keys, refused connection, 5xx, a stall past --timeout, a refused handshake, bad flags', async () => {
    const flow = file('err.json', imageWorkflow({ prefix: 'secret-err', steps: 1 }));
    const id = (await submitJob(fx.server, imageWorkflow({ steps: 1 }))).body.id as string;
    await waitForJob(fx.server, `/api/v2/jobs/${id}`, ['succeeded']);
    const closed = 'http://127.0.0.1:9';
    const results = await Promise.all([
      run(['jobs', 'get', id, '--verbose'], { env: env({ WES_API_KEY: WRONG }) }),
      run(['jobs', 'get', id, '--verbose', '--json'], { env: env({ WES_API_KEY: WRONG }) }),
      run(['jobs', 'submit', flow, '--verbose'], { env: env({ WES_API_KEY: FORBIDDEN }) }),
      run(['legacy', 'queue', '--verbose'], { env: env({ WES_API_KEY: WRONG }) }),
      run(['legacy', 'watch', 'no-such-prompt', '--verbose'], { env: env({ WES_API_KEY: WRONG }) }),
      run(['models', 'list', '--verbose', '--json'], { env: env({ WES_ROUTER_TOKEN: WRONG }) }),
      run(['models', 'run', 'dev/echo', '-d', '{}', '--verbose'], { env: env({ WES_ROUTER_TOKEN: FORBIDDEN }) }),
      run(['jobs', 'get', id, '--verbose', '--retries', '0'], { env: env({ WES_BASE_URL: closed }) }),
      run(['doctor', '--verbose'], { env: env({ WES_BASE_URL: closed }) }),
      run(['jobs', 'get', id, '--verbose', '--api-key', API_KEY, '--retries', '0'], { env: env({ WES_BASE_URL: closed, WES_API_KEY: '' }) }),
      run(['jobs', 'get', id, '--verbose', '--retries', '0'], { env: env({ WES_BASE_URL: `http://user:${USERINFO}@127.0.0.1:9` }) }),
      run(['jobs', 'gett', id, '--api-key', API_KEY]),
      run(['jobs', 'get', '--api-key', API_KEY, '--bogus-flag']),
      run(['--api-key', API_KEY, 'jobs', 'get']),
    ]);
    // Faults are taken by the next matching request: script each right before its own run.
    await addFaults(fx.server, { match: `GET /api/v2/jobs/${id}`, action: 'stall' });
    const stalled = await run(['jobs', 'get', id, '--verbose', '--timeout', '0.5']);
    await addFaults(fx.server, { match: 'POST /api/v2/jobs', action: 'status', status: 500, body: { error: { code: 'upstream_error', message: 'boom' } } });
    // A 5xx to a submit is not sent again (single-use key) and this server has no job list to look in: in doubt.
    const failing = await run(['jobs', 'submit', flow, '--verbose', '--retries', '1']);
    for (const r of [...results, stalled, failing]) expect(r.code).not.toBe(0);
    expect(stalled.code).toBe(8);
    expect(failing.code).toBe(11);
  });

  it('a key saved in a profile (auth login --with-token) never comes back out', async () => {
    const cfg = tempConfigDir();
    try {
      const login = await run(['auth', 'login', '--with-token', '--base-url', fx.server.url], { env: {}, input: `${API_KEY}\n`, configDir: cfg.dir });
      expect(login.code, login.stderr).toBe(0);
      for (const args of [['auth', 'status'], ['auth', 'status', '--json'], ['config', 'list', '--json'], ['jobs', 'get', 'nope', '--verbose'], ['auth', 'logout']]) {
        await run(args, { env: {}, configDir: cfg.dir });
      }
    } finally {
      cfg.cleanup();
    }
  });

  it('scanned every captured byte: no key, whole or in part, anywhere', () => {
    expect(runs.length).toBeGreaterThan(40);
    const found = runs.flatMap(({ args, res }) => leaks(res.stdout + res.stderr).map((leak) => `wes ${args.join(' ')}: ${leak}`));
    expect(found).toEqual([]);
  });
});
