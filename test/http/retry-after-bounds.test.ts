// Retry-After as the maker's clients read it (issue 35): at least 1 s between tries (a `0` never
// makes back-to-back resends), a wait past the bound ends at once with a message naming when to
// retry, and the time spent on retries is bounded as well as their count.
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { ApiError } from '../../src/errors.js';
import { RETRY_AFTER_MAX_MS, RETRY_BUDGET_MS } from '../../src/http/retry.js';
import { FakeClock } from '../helpers/fakes/clock.js';
import { json, startTestServer, type TestServer } from '../helpers/http-server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(handler: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const s = await startTestServer(handler);
  servers.push(s);
  return s;
}

const client = (base: string, retries = 3) => new HttpClient({ baseUrl: base, routerUrl: base, apiKey: 'key', routerToken: 'tok', retries });

describe('Retry-After bounds', () => {
  it('Retry-After: 0 waits at least a second between tries', async () => {
    const s = await server((_req, res, n) => (n < 3 ? json(res, 429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': '0' }) : json(res, 200, { ok: true })));
    const res = await client(s.url).json<{ ok: boolean }>({ family: 'jobs', url: '/api/v2/jobs/x' });
    expect(res.body.ok).toBe(true);
    const gaps = s.requests.slice(1).map((r, i) => r.at - s.requests[i]!.at);
    expect(gaps).toHaveLength(2);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(950);
  });

  it('a Retry-After past the bound ends at once, naming when to retry; nothing waits an hour', async () => {
    const s = await server((_req, res) => json(res, 503, { error: { code: 'service_unavailable', message: 'maintenance' } }, { 'retry-after': '3600' }));
    const started = Date.now();
    const err = await client(s.url).json({ family: 'jobs', url: '/api/v2/jobs/x' }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(err).toBeInstanceOf(ApiError);
    expect(s.requests).toHaveLength(1);
    expect((err as ApiError).hint).toMatch(new RegExp(`wait 3600 s before trying again \\(longer than wes waits, ${RETRY_AFTER_MAX_MS / 1000} s\\): retry after \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ`));
  });

  it('a huge Retry-After through the CLI: exit 7 with the hint, one request', async () => {
    const { runWes } = await import('../helpers/cli.js');
    const s = await server((_req, res) => json(res, 429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': '7200' }));
    const res = await runWes(['jobs', 'get', '0b7a3f0e-2f44-4b8e-9e43-5c1f0a7d9b21'], { env: { WES_BASE_URL: s.url, WES_API_KEY: 'k' } });
    expect(res.code).toBe(7);
    expect(res.stderr).toMatch(/hint: the server asks to wait 7200 s before trying again .*retry after \d{4}-/);
    expect(s.requests).toHaveLength(1);
  });

  it('the time spent on retries is bounded: on a fake clock, 40 s waits end after the 120 s budget, with the hint (no real wait)', async () => {
    const s = await server((_req, res) => json(res, 503, { error: { code: 'service_unavailable', message: 'busy' } }, { 'retry-after': '40' }));
    const clock = new FakeClock();
    const http = new HttpClient({ baseUrl: s.url, routerUrl: s.url, apiKey: 'key', routerToken: 'tok', retries: 10, clock });
    const err = await http.json({ family: 'jobs', url: '/api/v2/jobs/x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(clock.sleeps).toEqual([40_000, 40_000, 40_000]);
    expect(s.requests).toHaveLength(4);
    expect((err as ApiError).hint).toBe(`gave up after 120 s of retries (the budget is ${RETRY_BUDGET_MS / 1000} s); try again later`);
  });
});
