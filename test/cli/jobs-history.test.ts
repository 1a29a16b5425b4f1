// `wes jobs list` and `@last` / `@N`: the local history that every `jobs submit` writes,
// through the built binary against an in-process dev-server.
import { describe, expect, it } from 'vitest';
import { imageWorkflow } from '../helpers/dev-server.js';
import { failWorkflow, writeTemp } from './jobs-env.js';
import { useKeptConfig } from './history-env.js';

describe('wes jobs list and @last', () => {
  const { ctx, wes, dir, cfg, run } = useKeptConfig();

  it('an empty history says so; @last names the problem and the fix (exit 2)', async () => {
    const list = await run(['jobs', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toBe('');
    expect(list.stderr).toContain('no jobs in the history of profile default');
    const last = await run(['jobs', 'get', '@last']);
    expect(last.code).toBe(2);
    expect(last.stderr).toContain('no job submitted from this machine yet');
    expect(last.stderr).toContain('wes jobs submit');
    const bad = await run(['jobs', 'get', '@x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('@x is not a job reference');
  });

  it('records every submit, newest first with its status; --refresh reads the unfinished ones; @last and @N resolve', async () => {
    const first = (await run(['jobs', 'submit', writeTemp(dir(), imageWorkflow({ steps: 2 })), '--wait'])).stdout.trim();
    const second = (await run(['jobs', 'submit', writeTemp(dir(), failWorkflow())])).stdout.trim();
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toMatch(/^[0-9a-f-]{36}$/);

    const before = JSON.parse((await run(['jobs', 'list', '--json'])).stdout);
    expect(before.map((e: { id: string }) => e.id)).toEqual([second, first]);
    expect(before[1].status).toBe('succeeded');
    expect(before[0].source).toMatch(/\.json$/);

    const watched = await run(['jobs', 'watch', '@last']);
    expect(watched.code).toBe(3);
    expect(watched.stderr).toContain(second);
    const gotSecond = await run(['jobs', 'get', '@2', '--json']);
    expect(JSON.parse(gotSecond.stdout).id).toBe(first);

    const refreshed = await run(['jobs', 'list', '--refresh', '--json']);
    expect(JSON.parse(refreshed.stdout).map((e: { status: string }) => e.status)).toEqual(['failed', 'succeeded']);

    const piped = await run(['jobs', 'list', '--status', 'failed']);
    expect(piped.code).toBe(0);
    expect(piped.stdout.trim().split('\t').slice(0, 2)).toEqual([second, 'failed']);
    expect(piped.stdout.trim().split('\t')[2]).toMatch(/^\d{4}-\d\d-\d\dT/);
    const limited = await run(['jobs', 'list', '--limit', '1']);
    expect(limited.stdout.trim().split('\n')).toHaveLength(1);
    const badStatus = await run(['jobs', 'list', '--status', 'done']);
    expect(badStatus.code).toBe(2);
    expect(badStatus.stderr).toContain('Allowed choices are queued');
  });

  it('keeps one history per base URL', async () => {
    const other = await wes(['jobs', 'list', '--json'], { configDir: cfg.dir, baseUrl: `${ctx.server.url}/` + 'deployment/x' });
    expect(JSON.parse(other.stdout)).toEqual([]);
  });
});
