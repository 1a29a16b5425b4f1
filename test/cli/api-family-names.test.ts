// One name per API family (jobs, models, legacy) in what wes prints, while the names scripts
// already read keep working: `wes api --surface router` is the models family, and the JSON of
// `auth status` and `doctor` keeps each entry's old `surface` beside its `family`.
import { describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { useDevServer } from '../helpers/dev-server.js';

const ctx = useDevServer();

function env(): Record<string, string> {
  return { WES_BASE_URL: ctx.server.url, WES_API_KEY: 'wes-dev-key' };
}

describe('API family names', () => {
  it('wes api --surface takes models, and router as its old name, both sending the router credential', async () => {
    for (const family of ['models', 'router']) {
      const res = await runWes(['api', 'GET', '/v1/models?limit=1', '--surface', family], { env: env() });
      expect(res.code, res.stderr).toBe(0);
      expect((JSON.parse(res.stdout) as { data: unknown[] }).data).toHaveLength(1);
    }
    const bad = await runWes(['api', 'GET', '/v1/models', '--surface', 'b'], { env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('jobs, models, legacy');
  });

  it('auth status --json: each of .surfaces names its family and keeps its old surface name', async () => {
    const res = await runWes(['auth', 'status', '--json'], { env: env() });
    expect(res.code, res.stderr).toBe(0);
    const { surfaces } = JSON.parse(res.stdout) as { surfaces: Array<{ family: string; surface: string; verdict: string }> };
    expect(surfaces.map((s) => [s.family, s.surface, s.verdict])).toEqual([
      ['jobs', 'jobs', 'accepted'],
      ['models', 'router', 'accepted'],
      ['legacy', 'legacy', 'accepted'],
    ]);
  });

  it('doctor: the table says the family, --json keeps the old surface beside it', async () => {
    const human = await runWes(['doctor'], { env: env() });
    expect(human.stdout).toMatch(/^credential\tmodels\t/m);
    const res = await runWes(['doctor', '--json'], { env: env() });
    const checks = JSON.parse(res.stdout) as Array<{ check: string; family: string | null; surface: string | null }>;
    expect(checks.filter((c) => c.check === 'reachable').map((c) => [c.family, c.surface])).toEqual([
      ['jobs', 'jobs'],
      ['models', 'router'],
      ['legacy', 'legacy'],
    ]);
  });
});
