// `default` always exists: it can be chosen again after another profile was made current, it is
// always listed, and an empty history points to the profile that holds the jobs (issue 38, item 2).
import { describe, expect, it } from 'vitest';
import { imageWorkflow } from '../helpers/dev-server.js';
import { writeTemp } from './jobs-env.js';
import { useKeptConfig } from './history-env.js';

describe('profiles after `auth login --profile dev` (issue 38, item 2)', () => {
  const { dir, run, wes, cfg } = useKeptConfig();

  it('the jobs of default are pointed to from dev; `profiles use default` goes back; list always shows default', async () => {
    const id = (await run(['jobs', 'submit', writeTemp(dir(), imageWorkflow({ steps: 1 }))])).stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const login = await wes(['auth', 'login', '--profile', 'dev', '--with-token', '--no-verify'], { configDir: cfg.dir, input: 'a-key\n' });
    expect(login.code).toBe(0);

    const listed = await run(['profiles', 'list', '--json']);
    expect(JSON.parse(listed.stdout).map((p: { name: string; active: boolean }) => [p.name, p.active])).toEqual([['default', false], ['dev', true]]);

    const empty = await run(['jobs', 'list']);
    expect(empty.code).toBe(0);
    expect(empty.stderr).toContain('no jobs in the history of profile dev');
    expect(empty.stderr).toMatch(/profile default holds 1 job\(s\) at http:\/\/127\.0\.0\.1:\d+: wes --profile default jobs list/);
    const there = await run(['--profile', 'default', 'jobs', 'list', '--json']);
    expect(JSON.parse(there.stdout).map((e: { id: string }) => e.id)).toEqual([id]);

    const back = await run(['profiles', 'use', 'default']);
    expect(back.code).toBe(0);
    expect(back.stderr).toContain('now using profile default');
    const now = await run(['profiles', 'list', '--json']);
    expect(JSON.parse(now.stdout).map((p: { name: string; active: boolean }) => [p.name, p.active])).toEqual([['default', true], ['dev', false]]);
    const jobs = await run(['jobs', 'list', '--json']);
    expect(JSON.parse(jobs.stdout).map((e: { id: string }) => e.id)).toEqual([id]);
  });

  it('an unknown profile is still refused, its hint listing default', async () => {
    const res = await run(['profiles', 'use', 'prdo']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('no profile named prdo');
    expect(res.stderr).toContain('profiles: default, dev; or pass --create');
  });
});
