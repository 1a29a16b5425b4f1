// Which router routes the models commands use: with router_api auto (the default) the
// interface's /v1 first and, on a 404 no router wrote, the published /v2, remembered per router
// URL so the next command asks /v2 at once; pinned with --router-api, WES_ROUTER_API or the
// profile's router_api; doctor and auth status name the routes that answered.
import { beforeEach, describe, expect, it } from 'vitest';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { useDevServer } from '../helpers/dev-server.js';
import { useRawRouter } from './models-raw-router.js';

const raw = useRawRouter();
const dev = useDevServer({ catalogSize: 20 });

let config: string;
beforeEach(() => {
  config = tempConfigDir().dir;
  raw.server.requests.length = 0;
});
/** wes against the raw router (published routes only) with one config folder for the test. */
const wes = (args: string[], env: Record<string, string> = {}) => runWes(args, { configDir: config, env: { WES_BASE_URL: raw.server.url, WES_API_KEY: 'k-raw', ...env } });

describe('router_api auto', () => {
  it('finds the published routes after a bare 404 on /v1, and asks them first from then on', async () => {
    const first = await wes(['models', 'list']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('acme/chat');
    expect(raw.seen()).toEqual(['GET /v1/models', 'GET /v2/models']);
    raw.server.requests.length = 0;
    const run = await wes(['models', 'run', 'acme/chat', '-d', '{"q":1}']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('{"q":1}');
    const show = await wes(['models', 'show', 'acme/chat']);
    expect(show.code).toBe(0);
    expect(raw.seen()).toEqual(['POST /v2/models/acme/chat', 'GET /v2/models/acme/chat']);
    // The published run route is asked for JSON or the partner's own bytes.
    expect(raw.server.requests[0]!.headers.accept).toBe('application/json, */*;q=0.9');
  });

  it("uses the interface's routes where they answer (the dev-server serves both)", async () => {
    const r = await runWes(['models', 'run', 'dev/echo', '-d', '{"a":1}'], { configDir: config, env: { WES_BASE_URL: dev.server.url, WES_API_KEY: 'wes-dev-key' } });
    expect(r.code, r.stderr).toBe(0);
    expect(dev.server.state.requestCounts.get('POST /v1/models/dev/echo')).toBeGreaterThan(0);
  });
});

describe('router_api pinned', () => {
  it('--router-api v2 and WES_ROUTER_API=v2 ask /v2 alone; v1 pinned against a /v2-only router is exit 5 naming the pin', async () => {
    expect((await wes(['--router-api', 'v2', 'models', 'list'])).code).toBe(0);
    expect((await wes(['models', 'list'], { WES_ROUTER_API: 'v2' })).code).toBe(0);
    expect(raw.seen()).toEqual(['GET /v2/models', 'GET /v2/models']);
    const pinned = await wes(['--router-api', 'v1', 'models', 'list']);
    expect(pinned.code).toBe(5);
    expect(pinned.stderr).toMatch(/\/v1\/models answered 404 without the router's error type/);
    expect(pinned.stderr).toMatch(/--router-api auto \(router_api is v1 now\)/);
  });

  it('the profile key router_api is checked when set and used', async () => {
    const bad = await wes(['config', 'set', 'router_api', 'v3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('router_api must be one of auto, v1, v2, got "v3"');
    expect((await wes(['config', 'set', 'router_api', 'v2'])).code).toBe(0);
    expect((await wes(['models', 'list'])).code).toBe(0);
    expect(raw.seen()).toEqual(['GET /v2/models']);
    const listed = await wes(['config', 'list', '--json']);
    expect(JSON.parse(listed.stdout).settings).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'router_api', value: 'v2' })]));
    const flag = await wes(['--router-api', 'v9', 'models', 'list']);
    expect(flag.code).toBe(2);
  });
});

describe('doctor and auth status', () => {
  it('name the routes that answered: the published ones on the raw router, the interface\'s on the dev-server', async () => {
    const published = await runWes(['doctor', '--json'], { configDir: config, env: { WES_BASE_URL: dev.server.url, WES_API_KEY: 'wes-dev-key', WES_ROUTER_URL: raw.server.url } });
    const models = JSON.parse(published.stdout).find((c: { check: string; family: string }) => c.check === 'reachable' && c.family === 'models');
    expect(models).toMatchObject({ status: 'pass', detail: expect.stringMatching(/router routes \/v2\/models \(the published ones\)/) });
    const interfaceOnes = await runWes(['doctor', '--json'], { configDir: config, env: { WES_BASE_URL: dev.server.url, WES_API_KEY: 'wes-dev-key' } });
    const row = JSON.parse(interfaceOnes.stdout).find((c: { check: string; family: string }) => c.check === 'reachable' && c.family === 'models');
    expect(row.detail).toMatch(/router routes \/v1\/models \(the interface's\)/);
    const status = await runWes(['auth', 'status', '--json'], { configDir: config, env: { WES_BASE_URL: dev.server.url, WES_API_KEY: 'wes-dev-key', WES_ROUTER_URL: raw.server.url } });
    const surfaces = JSON.parse(status.stdout).surfaces as Array<{ family: string; router_api: string | null; verdict: string }>;
    expect(surfaces.find((s) => s.family === 'models')).toMatchObject({ router_api: 'v2', verdict: 'accepted' });
    expect(surfaces.find((s) => s.family === 'jobs')).toMatchObject({ router_api: null });
  });
});

describe('completion of model ids', () => {
  it("refreshes its cache through the profile's router routes: pinned v2 asks /v2 alone, and the ids come back", async () => {
    const refresh = await wes(['__complete', 'models-refresh'], { WES_ROUTER_API: 'v2' });
    expect(refresh.code, refresh.stderr).toBe(0);
    expect(raw.seen()).toEqual(['GET /v2/models']);
    const ids = await wes(['__complete', 'models'], { WES_ROUTER_API: 'v2' });
    expect(ids.stdout.split('\n')).toContain('acme/chat');
  });
});
