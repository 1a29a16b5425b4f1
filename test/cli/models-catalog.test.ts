// `wes models list|show|schema` through the built binary against a 10 000-model dev-server.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rebuildCatalog } from '../../src/dev-server/models/index.js';
import { tempConfigDir } from '../helpers/cli.js';
import { useDevServer } from '../helpers/dev-server.js';
import { seen, totalRequests, wesAgainst } from './models-env.js';

const holder = useDevServer({ catalogSize: 10_000, notEnabledTokens: ['rollout-pending'], routerTokens: ['limited-7'] });
const wes = wesAgainst(() => holder.server);
const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function configDir(): string {
  const { dir, cleanup } = tempConfigDir();
  cleanups.push(cleanup);
  return dir;
}

describe('wes models list', () => {
  it('prints one page as a table (tab-separated when piped) and says more follow', async () => {
    const r = await wes(['models', 'list', '--limit', '7']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(7);
    for (const line of lines) {
      const [id, provider, model, policy] = line.split('\t');
      expect(id).toBe(`${provider}/${model}`);
      expect(['always', 'never', 'when_provider_charges']).toContain(policy);
    }
    expect(r.stderr).toMatch(/--all/);
  });

  it('prints the page object with --json, limit sent as given and served clamped', async () => {
    const r = await wes(['models', 'list', '--limit', '500', '--json']);
    expect(r.code).toBe(0);
    const page = JSON.parse(r.stdout);
    expect(page.limit).toBe(100);
    expect(page.data).toHaveLength(100);
    expect(page.has_more).toBe(true);
    expect(typeof page.next_cursor).toBe('string');
  });

  it('walks all 10 000 models across short and empty pages, each id once', async () => {
    const before = seen(holder.server, 'GET /v1/models');
    const r = await wes(['models', 'list', '--all', '--json']);
    expect(r.code).toBe(0);
    const entries = JSON.parse(r.stdout) as Array<{ id: string }>;
    expect(entries).toHaveLength(10_000);
    expect(new Set(entries.map((e) => e.id)).size).toBe(10_000);
    // Pages 2, 7, 12... are empty and 1, 4, 10... short, so the walk needs more than 100 requests.
    expect(seen(holder.server, 'GET /v1/models') - before).toBeGreaterThan(110);
  });

  it('passes cursors with + / = . ~ back exactly at any page size', async () => {
    const r = await wes(['models', 'list', '--all', '--limit', '37', '--json']);
    expect(r.code).toBe(0);
    expect(new Set((JSON.parse(r.stdout) as Array<{ id: string }>).map((e) => e.id)).size).toBe(10_000);
  });

  it('starts over once when the catalog is rebuilt mid-walk, listing each model once', async () => {
    const start = seen(holder.server, 'GET /v1/models');
    const timer = setInterval(() => {
      if (seen(holder.server, 'GET /v1/models') >= start + 5) {
        rebuildCatalog(holder.server.state);
        clearInterval(timer);
      }
    }, 1);
    try {
      const r = await wes(['models', 'list', '--all', '--json']);
      expect(r.code).toBe(0);
      const ids = (JSON.parse(r.stdout) as Array<{ id: string }>).map((e) => e.id);
      expect(ids).toHaveLength(10_000);
      expect(new Set(ids).size).toBe(10_000);
      expect(r.stderr).toMatch(/catalog changed during the walk/);
    } finally {
      clearInterval(timer);
    }
  });

  it('filters by provider, and refuses a malformed provider without a request', async () => {
    const r = await wes(['models', 'list', '--all', '--provider', 'dev', '--json']);
    expect(r.code).toBe(0);
    const ids = (JSON.parse(r.stdout) as Array<{ id: string }>).map((e) => e.id).sort();
    expect(ids).toEqual(['dev/broken', 'dev/caption', 'dev/echo', 'dev/flaky', 'dev/image', 'dev/metered', 'dev/moderated', 'dev/slow', 'dev/speech', 'dev/timeout', 'dev/upscale']);
    const before = totalRequests(holder.server);
    const bad = await wes(['models', 'list', '--provider', 'Not Valid']);
    expect(bad.code).toBe(2);
    expect(totalRequests(holder.server)).toBe(before);
  });

  it('exits 4 with not_enabled, without retrying', async () => {
    const before = seen(holder.server, 'GET /v1/models');
    const r = await wes(['models', 'list'], { token: 'rollout-pending' });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/not switched on/);
    expect(r.stderr).toMatch(/request id req_/);
    expect(seen(holder.server, 'GET /v1/models') - before).toBe(1);
  });
});

describe('wes models show', () => {
  it('prints the detail for people and the object with --json', async () => {
    const human = await wes(['models', 'show', 'dev/upscale']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/charges on policy rejection\s+when_provider_charges/);
    expect(human.stdout).toMatch(/input schema\s+http:\/\/.*\/v1\/models\/dev\/upscale\/openapi\.json/);
    const json = await wes(['models', 'show', 'dev/upscale', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: 'dev/upscale', provider: 'dev', model: 'upscale', input_schema_url: expect.stringMatching(/^https:\/\//) });
  });

  it('shows the suggestions of model_not_found and exits 5', async () => {
    const r = await wes(['models', 'show', 'dev/upscal']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/Did you mean: dev\/upscale/);
    expect(r.stderr).toMatch(/model_not_found/);
  });

  it('exits 4 for a model the credential is not entitled to', async () => {
    const prime = (JSON.parse((await wes(['models', 'list', '--limit', '100', '--json'])).stdout).data as Array<{ id: string; provider: string }>).find((e) => e.provider === 'prime')!;
    const r = await wes(['models', 'show', prime.id], { token: 'limited-7' });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/forbidden/);
  });

  it.each([['Dev/echo'], ['dev'], ['dev/echo/extra'], ['dev/-echo'], [`dev/${'m'.repeat(129)}`]])('refuses the id %s with exit 2 and sends nothing', async (id) => {
    const before = totalRequests(holder.server);
    for (const command of [['show', id], ['schema', id], ['run', id, '-d', '{}']]) {
      const r = await wes(['models', ...command]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/model id/);
    }
    expect(totalRequests(holder.server)).toBe(before);
  });
});

describe('wes models schema', () => {
  it('prints the input fields, caches the document (0600 in a 0700 folder) and revalidates it with If-None-Match', async () => {
    const dir = configDir();
    const first = await wes(['models', 'schema', 'dev/upscale'], { configDir: dir });
    expect(first.code).toBe(0);
    const rows = first.stdout.trim().split('\n').map((l) => l.split('\t'));
    const byName = Object.fromEntries(rows.map((r) => [r[0], r]));
    expect(byName.image).toEqual(['image', 'string (base64, image/png)', 'yes', '', '', expect.stringContaining('PNG')]);
    expect(byName.scale!.slice(0, 5)).toEqual(['scale', 'integer', 'no', '2', 'one of 2, 4']);
    expect(byName.creativity![4]).toBe('>= 0, <= 1');
    // where the schema came from is said with --verbose only (issue 29, item 19)
    expect(first.stderr).not.toMatch(/fetched from the router/);
    const file = join(dir, 'cache', 'default', 'schemas', 'dev', 'upscale.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'cache', 'default', 'schemas', 'dev')).mode & 0o777).toBe(0o700);

    const second = await wes(['models', 'schema', 'dev/upscale', '--verbose'], { configDir: dir });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toMatch(/if-none-match: "/i);
    expect(second.stderr).toMatch(/< 304/);
    expect(second.stderr).toMatch(/unchanged on the router \(304\)/);

    const refreshed = await wes(['models', 'schema', 'dev/upscale', '--refresh', '--verbose'], { configDir: dir });
    expect(refreshed.stderr).not.toMatch(/if-none-match/i);
    expect(refreshed.stderr).toMatch(/fetched from the router/);
  });

  it('prints the document unchanged with --json', async () => {
    const r = await wes(['models', 'schema', 'dev/upscale', '--json']);
    expect(r.code).toBe(0);
    const served = await fetch(`${holder.server.url}/v1/models/dev/upscale/openapi.json`, { headers: { authorization: 'Bearer wes-dev-key' } });
    expect(JSON.parse(r.stdout)).toEqual(await served.json());
  });
});
