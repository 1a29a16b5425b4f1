// Issue 35: the job API in its three deployments, each against the dev-server in its dialect.
// Serverless: labels as a map (wes's key label one pair among --label's), a list of stored
// records paged by cursor and filtered by label, a lost answer found by its label over more than
// one page. Comfy Cloud: no labels (one refused submit per base URL, ever, then remembered), no
// list (a lost answer in doubt, exit 11), entity not-found codes. `--job-api` pins the dialect.
import { describe, expect, it } from 'vitest';
import { addFaults, imageWorkflow } from '../helpers/dev-server.js';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { until } from '../helpers/until.js';
import { countsFrom, jobsTagged, useFaultServer } from '../faults/kit.js';
import { useTempDir, writeTemp } from './jobs-env.js';

const SUBMIT = 'POST /api/v2/jobs';

describe('serverless: labels as a map, a paged and filtered list', () => {
  const fx = useFaultServer({ deployment: 'serverless', stepMs: 1, maxQueue: 2000 });
  const dir = useTempDir();
  const cfg = tempConfigDir();
  const base = () => `${fx.server.url}/deployment/dev-deployment`;
  const wes = (args: string[]) => runWes(args, { configDir: cfg.dir, env: { WES_BASE_URL: base(), WES_API_KEY: fx.server.apiKey! } });
  const othersMake = (n: number, metadata: Record<string, string> = { owner: 'someone-else' }) => {
    for (let i = 0; i < n; i++) fx.server.state.engine.submit(imageWorkflow({ steps: 1, prefix: 'others' }), undefined, 'v2', { deploymentId: 'dev-deployment', metadata });
  };

  it('--label pairs and the key label go as one map, in one POST; jobs get shows them', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'sl-labels', steps: 1 }));
    const counts = countsFrom(fx.server);
    const res = await wes(['jobs', 'submit', flow, '--label', 'team=vision', '--label', 'run=7', '--idempotency-key', 'sl-key-1']);
    expect(res.code, res.stderr).toBe(0);
    expect(counts.delta(SUBMIT)).toBe(1); // the dev-server counts paths with the mount prefix taken off
    const job = fx.server.state.engine.get(res.stdout.trim())!;
    expect(job.metadata).toEqual({ team: 'vision', run: '7', 'wes-key': 'sl-key-1' });
    const get = await wes(['jobs', 'get', job.id]);
    expect(get.stdout).toMatch(/^labels\s+team=vision run=7$/m);
    expect(get.stdout).toMatch(/^idempotency key\s+sl-key-1$/m);
  });

  it('jobs list --remote --label: filtered on the server, pages walked to the end; records shown as they are', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'sl-list', steps: 1 }));
    for (let i = 0; i < 3; i++) expect((await wes(['jobs', 'submit', flow, '--label', 'batch=b42'])).code).toBe(0);
    othersMake(150);
    const all = await wes(['jobs', 'list', '--remote', '--label', 'batch=b42', '--json']);
    expect(all.code, all.stderr).toBe(0);
    const page = JSON.parse(all.stdout) as { jobs: Array<Record<string, unknown>>; next_cursor?: string };
    expect(page.jobs).toHaveLength(3);
    expect(page).not.toHaveProperty('next_cursor');
    expect(Object.keys(page.jobs[0]!).sort()).toEqual(['create_time', 'deployment_id', 'id', 'metadata', 'status', 'update_time']);
    // Unfiltered, --limit stops the walk; the table is id, status, created, updated, labels.
    const limited = await wes(['jobs', 'list', '--remote', '--limit', '120']);
    expect(limited.stdout.trim().split('\n')).toHaveLength(120);
    expect(limited.stdout.split('\n')[0]!.split('\t')[4]).toBe('owner=someone-else');
    const tooMany = await wes(['jobs', 'list', '--remote', '--label', 'a=1', '--label', 'b=2', '--label', 'c=3', '--label', 'd=4']);
    expect(tooMany.code).toBe(2);
  });

  it('a lost submit answer is found by its label over more than one page; one POST', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'sl-lost', steps: 1 }));
    await addFaults(fx.server, [
      { match: SUBMIT, action: 'lose' },
      { match: 'GET /api/v2/jobs', action: 'delay', delay_ms: 1000, count: 1 },
    ]);
    const counts = countsFrom(fx.server);
    const running = wes(['jobs', 'submit', flow, '--idempotency-key', 'sl-lost-key', '--verbose']);
    await until(() => jobsTagged(fx.server, 'sl-lost').length === 1, 'the lost submit\'s job', 20_000);
    othersMake(150); // a filtered page scans 100 records: the label is on the second page
    const res = await running;
    expect(res.code, res.stderr.slice(-1500)).toBe(0);
    expect(res.stdout.trim()).toBe(jobsTagged(fx.server, 'sl-lost')[0]);
    expect(counts.delta(SUBMIT)).toBe(1);
    expect(res.stderr).toMatch(/GET \S+\/api\/v2\/jobs\?[^\n]*cursor=/);
    expect(res.stderr).toContain('found its job');
  });
});

describe('Comfy Cloud: no labels, no list, entity not-found codes', () => {
  const fx = useFaultServer({ stepMs: 1 });
  const dir = useTempDir();
  const wesIn = (configDir: string) => (args: string[]) => runWes(args, { configDir, env: { WES_BASE_URL: fx.server.url, WES_API_KEY: fx.server.apiKey! } });

  it('two submits in a row make two jobs with at most three POSTs; the next command remembers', async () => {
    const cfg = tempConfigDir();
    const wes = wesIn(cfg.dir);
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'cloud-two', steps: 1 }));
    const counts = countsFrom(fx.server);
    const first = await wes(['jobs', 'submit', flow, '--label', 'team=vision']);
    const second = await wes(['jobs', 'submit', flow]);
    expect([first.code, second.code], first.stderr + second.stderr).toEqual([0, 0]);
    expect(jobsTagged(fx.server, 'cloud-two')).toHaveLength(2);
    expect(counts.delta(SUBMIT)).toBeLessThanOrEqual(3);
    expect(counts.delta(SUBMIT)).toBe(3);
    const third = await wes(['jobs', 'submit', flow]);
    expect(third.code).toBe(0);
    expect(counts.delta(SUBMIT)).toBe(4);
    cfg.cleanup();
  });

  it('--job-api cloud pins the dialect: no refused submit at all', async () => {
    const cfg = tempConfigDir();
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'cloud-pinned', steps: 1 }));
    const counts = countsFrom(fx.server);
    const res = await wesIn(cfg.dir)(['--job-api', 'cloud', 'jobs', 'submit', flow]);
    expect(res.code, res.stderr).toBe(0);
    expect(counts.delta(SUBMIT)).toBe(1);
    cfg.cleanup();
  });

  it('a lost answer is in doubt (exit 11) with the key and the exact command; nothing is sent again', async () => {
    const cfg = tempConfigDir();
    const wes = wesIn(cfg.dir);
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'cloud-lost', steps: 1 }));
    expect((await wes(['jobs', 'submit', flow])).code).toBe(0); // learns the deployment
    await addFaults(fx.server, { match: SUBMIT, action: 'lose' });
    const counts = countsFrom(fx.server);
    const res = await wes(['jobs', 'submit', flow, '--idempotency-key', 'cloud-lost-key']);
    expect(res.code).toBe(11);
    expect(res.stderr).toContain('wes jobs find --key cloud-lost-key');
    expect(res.stderr).toContain('Comfy Cloud offers no job list');
    expect(counts.delta(SUBMIT)).toBe(1);
    expect(jobsTagged(fx.server, 'cloud-lost')).toHaveLength(2);
    const find = await wes(['jobs', 'find', '--key', 'cloud-lost-key']);
    expect(find.code).toBe(5);
    expect(find.stderr).toMatch(/serverless deployments and the self-hosted job API server can answer it; Comfy Cloud cannot/);
    cfg.cleanup();
  });

  it('job_not_found and asset_not_found are "not found" (exit 5); doctor takes job_not_found as the job API', async () => {
    const cfg = tempConfigDir();
    const wes = wesIn(cfg.dir);
    const job = await wes(['jobs', 'get', '0b7a3f0e-2f44-4b8e-9e43-5c1f0a7d9b21', '--json']);
    expect(job.code).toBe(5);
    expect(JSON.parse(job.stderr).error.code).toBe('job_not_found');
    const asset = await wes(['assets', 'get', 'no-such-asset', '--json']);
    expect(asset.code).toBe(5);
    expect(JSON.parse(asset.stderr).error.code).toBe('asset_not_found');
    const doctor = await wes(['doctor', '--json']);
    const credential = (JSON.parse(doctor.stdout) as Array<{ check: string; surface?: string; status: string }>).find((c) => c.check === 'credential' && c.surface === 'jobs');
    expect(credential?.status).toBe('pass');
    cfg.cleanup();
  });
});
