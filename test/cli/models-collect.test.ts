// `models run` against the published router's key rules: a call whose key is still running
// elsewhere (409 concurrency_limit_exceeded) is waited for and collected, not run twice; an answer
// from the key's record is said to be collected, not billed again; a key used for another request
// (409 invalid_input) asks for a new key; a run that ends in doubt names the key and the exact
// command that collects it; the price and spend figures show with --verbose and in --json metadata.
// Each test has a dev-server (its request counts, its keys' records) or a raw router (how it
// answers runs) of its own, so the tests run side by side: most of the file is waiting out model
// runs, the 409's Retry-After and a --timeout.
import { describe, expect, it } from 'vitest';
import { setModelsDeadline } from '../../src/dev-server/models/index.js';
import { runWes, type RunOptions } from '../helpers/cli.js';
import { useServerPerTest } from '../helpers/dev-server.js';
import { until } from '../helpers/until.js';
import { routerError, useRawRouter, type RawRouter } from './models-raw-router.js';

const ownServer = useServerPerTest({ catalogSize: 20, routerTokens: ['t-col-a', 't-col-b', 't-col-c'] });

/** A dev-server for one test (the router's deadline 10 s), wes against it with a router token, and its POSTs of dev/slow so far. */
async function own() {
  const server = await ownServer();
  setModelsDeadline(server.state, 10_000);
  const wes = (args: string[], token: string, opts: RunOptions = {}) =>
    runWes(['--router-api', 'v2', ...args], { ...opts, env: { WES_BASE_URL: server.url, WES_API_KEY: 'wes-dev-key', WES_ROUTER_TOKEN: token, ...opts.env } });
  const posts = () => server.state.requestCounts.get('POST /v2/models/dev/slow') ?? 0;
  return { server, wes, posts };
}

/** wes against a raw router, on the published routes. */
const wesRaw = (router: RawRouter, args: string[]) => runWes(args, { env: { WES_BASE_URL: router.server.url, WES_ROUTER_API: 'v2', WES_API_KEY: 'k-raw' } });

describe.concurrent('409: an earlier call with this key is still running', () => {
  it('is waited for and collected: one generation, the same output, said to be not billed again', async () => {
    const { wes, posts } = await own();
    const body = JSON.stringify({ prompt: 'twice', duration_ms: 2500 });
    const before = posts();
    const first = wes(['models', 'run', 'dev/slow', '-d', body, '--idempotency-key', 'k-col-1'], 't-col-a');
    await until(() => posts() > before, 'the first call');
    const second = await wes(['models', 'run', 'dev/slow', '-d', body, '--idempotency-key', 'k-col-1'], 't-col-a');
    const original = await first;
    expect(original.code, original.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(original.stdout);
    expect(second.stderr).toContain('an earlier call of dev/slow with Idempotency-Key k-col-1 is still running (409); collecting its result in 1 s');
    expect(second.stderr).toContain('collected the result of the earlier call with Idempotency-Key k-col-1 (Idempotent-Replayed): not billed again');
    expect(original.stderr).not.toMatch(/Idempotent-Replayed/);
    expect(posts() - before).toBeGreaterThanOrEqual(3); // the first call, one 409 or more (one a second), the collect
  });
});

describe.concurrent('409 invalid_input: the key belongs to another request', () => {
  it('is not sent again and asks for a new key (exit 6)', async () => {
    const { server, wes } = await own();
    expect((await wes(['models', 'run', 'dev/echo', '-d', '{"a":1}', '--idempotency-key', 'k-col-2'], 't-col-b')).code).toBe(0);
    const other = await wes(['models', 'run', 'dev/echo', '-d', '{"a":2}', '--idempotency-key', 'k-col-2'], 't-col-b');
    expect(other.code).toBe(6);
    expect(other.stderr).toMatch(/code invalid_input, HTTP 409/);
    expect(other.stderr).toContain('hint: the router will not serve this request under Idempotency-Key k-col-2: it was used for a different request, or its answer can no longer be replayed. Run it again under a new key (leave out --idempotency-key)');
    expect(server.state.requestCounts.get('POST /v2/models/dev/echo')).toBe(2);
  });
});

describe.concurrent('what an answer says besides the output', () => {
  it('--json keeps stdout the output and puts the metadata on stderr; --verbose shows the price and spend', async () => {
    const { wes } = await own();
    const r = await wes(['models', 'run', 'dev/slow', '-d', '{"duration_ms":1,"cost_cents":12}', '--json', '--idempotency-key', 'k-col-3'], 't-col-c');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ duration_ms: 1 });
    expect(JSON.parse(r.stderr.trim())).toEqual({
      metadata: {
        model: 'dev/slow',
        request_id: expect.stringMatching(/^req_/),
        idempotency_key: 'k-col-3',
        queued_request_id: null,
        replayed: false,
        credits_used: '12',
        fallback_provider: null,
        dropped_params: [],
        committed_spend: { limit_cents: 500, current_cents: 12, remaining_cents: 488 },
        content_type: 'application/json',
        bytes: r.stdoutBytes.length,
        file: null,
      },
    });
    const again = await wes(['models', 'run', 'dev/slow', '-d', '{"duration_ms":1,"cost_cents":12}', '--verbose', '--idempotency-key', 'k-col-3'], 't-col-c');
    expect(again.stderr).toContain('credits used: 12 (the original run, charged once)');
    expect(again.stderr).toContain('committed spend: limit 500 cents ($5.00), in flight 12 cents ($0.12), remaining 488 cents ($4.88)');
    expect(again.stderr).toContain('(Idempotent-Replayed): not billed again');
  });
});

describe.concurrent('a run in doubt', () => {
  // A router for each test: each decides how its runs are answered.
  const busy = useRawRouter();
  const failing = useRawRouter();

  it('a collect cut by --timeout names the key and the exact command that collects it (exit 8)', async () => {
    busy.onRun = (_req, res) => routerError(res, 409, 'concurrency_limit_exceeded', {}, { 'retry-after': '1' });
    const r = await wesRaw(busy, ['--timeout', '2.5', 'models', 'run', 'acme/chat', '-d', '{"q":1}', '--idempotency-key', 'k-doubt']);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/still running \(409\); collecting its result in 1 s/);
    expect(r.stderr).toContain('the model run may have gone through (Idempotency-Key k-doubt); the router charges a key once, so collect its result with: wes models run acme/chat -d \'{"q":1}\' --idempotency-key k-doubt');
  });

  it('a 504 without Retry-After after the retries is in doubt too; a refusal is not', async () => {
    failing.onRun = (_req, res) => routerError(res, 504, 'deadline_exceeded');
    const cut = await wesRaw(failing, ['--retries', '1', 'models', 'run', 'acme/chat', '-d', '{}', '--idempotency-key', 'k-504']);
    expect(cut.code).toBe(8);
    expect(cut.stderr).toMatch(/collect its result with: wes models run acme\/chat -d '\{\}' --idempotency-key k-504/);
    failing.onRun = (_req, res) => routerError(res, 403, 'forbidden');
    const refused = await wesRaw(failing, ['models', 'run', 'acme/chat', '-d', '{}']);
    expect(refused.code).toBe(4);
    expect(refused.stderr).not.toMatch(/may have gone through/);
  });
});
