// `wes jobs list --remote`: the server's own job list (GET /api/v2/jobs, the reference self-hosted
// server's), where there is one; a server without it is said in one line and this machine's
// history is shown instead. Submits carry their label (--label joins wes's own, which names the key).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { addFaults, imageWorkflow, useDevServer } from '../helpers/dev-server.js';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { useTempDir, writeTemp } from './jobs-env.js';

describe('jobs list --remote on a server with a job list', () => {
  const ctx = useDevServer({ deployment: 'self-hosted', stepMs: 2 });
  const dir = useTempDir();

  it('lists the server\'s jobs newest first with their own labels; --json is the server\'s {jobs, truncated}; --status and --limit go to the server', async () => {
    const cfg = tempConfigDir();
    try {
      const env = { WES_BASE_URL: ctx.server.url };
      const flow = writeTemp(dir(), imageWorkflow({ prefix: 'remote', steps: 1 }));
      const first = await runWes(['jobs', 'submit', flow, '--wait', '--label', 'order=first'], { env, configDir: cfg.dir });
      const second = await runWes(['jobs', 'submit', flow, '--wait', '--label', 'order=second'], { env, configDir: cfg.dir });
      expect(first.code, first.stderr).toBe(0);
      expect(second.code, second.stderr).toBe(0);
      const [firstId, secondId] = [first.stdout.split('\n')[0]!, second.stdout.split('\n')[0]!];

      const human = await runWes(['jobs', 'list', '--remote'], { env, configDir: cfg.dir });
      expect(human.code, human.stderr).toBe(0);
      // Piped: one row a job, tab-separated, no heading (as gh prints tables to a pipe).
      const rows = human.stdout.trim().split('\n');
      expect(rows[0]!.split('\t')).toEqual([secondId, 'succeeded', expect.any(String), expect.any(String), 'order=second']);
      expect(rows[1]!.split('\t')).toEqual([firstId, 'succeeded', expect.any(String), expect.any(String), 'order=first']);
      expect(human.stdout).not.toContain('wes-key:');

      const json = await runWes(['jobs', 'list', '--remote', '--json', '--limit', '1', '--status', 'succeeded'], { env, configDir: cfg.dir });
      const list = JSON.parse(json.stdout);
      // A full page is not `truncated` on the reference server.
      expect(list).toMatchObject({ truncated: false, jobs: [{ id: secondId, status: 'succeeded', metadata: expect.stringMatching(/^order=second wes-key:[0-9a-f-]{36}$/) }] });
      expect(ctx.server.state.requestCounts.get('GET /api/v2/jobs')).toBeGreaterThanOrEqual(2);

      const refused = await runWes(['jobs', 'list', '--remote', '--refresh'], { env, configDir: cfg.dir });
      expect(refused.code).toBe(2);
    } finally {
      cfg.cleanup();
    }
  });
});

describe('jobs list --remote on an earlier release whose list says nothing of being whole', () => {
  const ctx = useDevServer({ deployment: 'self-hosted', faults: true });
  // The real answer of comfy-api-proxy 50d7280 (before ComfyUI 0.3.64): `{jobs}` alone, no `truncated`.
  const recorded = JSON.parse(readFileSync(new URL('../fixtures/job-api-proxy-50d7280/list-running.json', import.meta.url), 'utf8'));

  it('a short page is "may hold more", not "holds more jobs than these"', async () => {
    const cfg = tempConfigDir();
    try {
      await addFaults(ctx.server, { match: 'GET /api/v2/jobs', action: 'status', status: recorded.status, body: recorded.body, headers: recorded.headers });
      const res = await runWes(['jobs', 'list', '--remote', '--status', 'running', '--limit', '20'], { env: { WES_BASE_URL: ctx.server.url }, configDir: cfg.dir });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout.trim().split('\t').slice(0, 2)).toEqual([recorded.body.jobs[0].id, 'running']);
      expect(res.stderr).toContain('(the server may hold more jobs than these: its list does not say whether it is whole)');
      expect(res.stderr).not.toContain('holds more');
    } finally {
      cfg.cleanup();
    }
  });
});

describe('jobs list --remote on a server without one', () => {
  const ctx = useDevServer({ stepMs: 2 });
  const dir = useTempDir();

  it('says so in one line and shows the jobs submitted from this machine', async () => {
    const cfg = tempConfigDir();
    try {
      const env = { WES_BASE_URL: ctx.server.url, WES_API_KEY: ctx.server.apiKey! };
      const flow = writeTemp(dir(), imageWorkflow({ prefix: 'local', steps: 1 }));
      const made = await runWes(['jobs', 'submit', flow], { env, configDir: cfg.dir });
      expect(made.code, made.stderr).toBe(0);
      const res = await runWes(['jobs', 'list', '--remote'], { env, configDir: cfg.dir });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toContain('this server keeps no job list (GET /api/v2/jobs answered 501); showing the jobs submitted from this machine instead');
      expect(res.stdout).toContain(made.stdout.trim());
    } finally {
      cfg.cleanup();
    }
  });
});
