// wes reads the times the reference self-hosted server writes: Python's `isoformat()`, with
// microseconds and `+00:00`, and with no fraction at all when the microseconds are 0. The real
// newest server's list answer (../fixtures/job-api-proxy-latest/list.json) is replayed; the
// self-hosted dev-server writes the same form.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addFaults, getJson, imageWorkflow, useDevServer, type Json } from '../helpers/dev-server.js';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { useTempDir, writeTemp } from './jobs-env.js';

const LIST = JSON.parse(readFileSync(new URL('../fixtures/job-api-proxy-latest/list.json', import.meta.url), 'utf8')) as Json;
const PYTHON_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/;

describe('wes reads the reference server\'s Python times', () => {
  const ctx = useDevServer({ deployment: 'self-hosted', faults: true, stepMs: 2 });
  const dir = useTempDir();

  async function wes(args: string[], terminal = false) {
    const cfg = tempConfigDir();
    try {
      return await runWes(args, { env: { WES_BASE_URL: ctx.server.url }, configDir: cfg.dir, ...(terminal ? { terminal: { stdoutTTY: true, stderrTTY: true, columns: 200 } } : {}) });
    } finally {
      cfg.cleanup();
    }
  }

  it('jobs list --remote on the real answer: piped, the times as sent; on a terminal, ages', async () => {
    const jobs = LIST.body.jobs as Json[];
    await addFaults(ctx.server, { match: 'GET /api/v2/jobs', action: 'status', status: LIST.status, body: LIST.body, headers: LIST.headers, count: 2 });
    const piped = await wes(['jobs', 'list', '--remote']);
    expect(piped.code, piped.stderr).toBe(0);
    const rows = piped.stdout.trim().split('\n').map((row) => row.split('\t'));
    expect(rows.map((row) => [row[0], row[2]])).toEqual(jobs.map((job) => [job.id, job.created_at]));
    for (const row of rows) expect(row[2]).toMatch(PYTHON_TIME);

    const shown = await wes(['jobs', 'list', '--remote'], true);
    expect(shown.code, shown.stderr).toBe(0);
    const lines = shown.stdout.split('\n').filter((line) => jobs.some((job) => line.includes(job.id as string)));
    expect(lines).toHaveLength(jobs.length);
    for (const line of lines) expect(line).toMatch(/\b\d+ (s|min|h|d) ago\b/);
    expect(shown.stdout).not.toMatch(/NaN|Invalid/);
  });

  it('jobs submit --wait --download and jobs get on the self-hosted dev-server, whose times are Python\'s', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'pytimes', steps: 1 }));
    const out = `${dir()}/out`;
    const submitted = await wes(['jobs', 'submit', flow, '--wait', '--download', out]);
    expect(submitted.code, submitted.stderr).toBe(0);
    const id = submitted.stdout.split('\n')[0]!;
    expect(readFileSync(`${out}/pytimes_00001_.png`).length).toBeGreaterThan(0);

    const job = (await getJson(ctx.server, `/api/v2/jobs/${id}`)).body;
    for (const time of [job.created_at, job.expires_at, job.outputs[0].url_expires_at]) expect(time).toMatch(PYTHON_TIME);
    const got = await wes(['jobs', 'get', id]);
    expect(got.code, got.stderr).toBe(0);
    const lines = got.stdout.trimEnd().split('\n');
    expect(lines).toContain(`created\t${job.created_at as string}`);
    expect(lines).toContain(`expires\t${job.expires_at as string}`);
  });

  it('an `expired` read whose expires_at (Python form, no fraction) is a day ahead is read again, not believed', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'pyexpired', steps: 1 }));
    const submitted = await wes(['jobs', 'submit', flow, '--wait']);
    expect(submitted.code, submitted.stderr).toBe(0);
    const id = submitted.stdout.split('\n')[0]!;
    const job = (await getJson(ctx.server, `/api/v2/jobs/${id}`)).body;
    const ahead = new Date(Math.floor(Date.now() / 1000) * 1000 + 86_400_000).toISOString().replace('.000Z', '+00:00');
    expect(ahead).toMatch(PYTHON_TIME);
    await addFaults(ctx.server, { match: `GET /api/v2/jobs/${id}`, action: 'status', status: 200, body: { ...job, status: 'expired', expires_at: ahead }, count: 1 });
    const got = await wes(['jobs', 'get', id, '--json']);
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ id, status: 'succeeded' });
  });
});
