// `wes legacy` against a server answering as the published cloud document says
// (test/fixtures/protocol/legacy.json `published`): its own system_stats (with `cloud_version`),
// the status route's vocabulary (`in_progress`, `completed`, `error` with `error_message`) ending a
// wait, the job list paged, the published queue tuple, a running job named as running instead of
// "deleted", an interrupt of one job refused while another runs, and `{code, message}` errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import legacy from '../fixtures/protocol/legacy.json' with { type: 'json' };
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { json, startTestServer, type TestServer } from '../helpers/http-server.js';

const { published } = legacy;
const [FAILED, PENDING] = published.jobs_list.jobs.map((j) => j.id) as [string, string];
const RUNNING = '3c1f6e0a-8d2b-4f5e-9a7c-1b2d3e4f5a6b';
const OTHER = '7b3e9c74-2f0a-4b9a-9d76-2e3e5b2b8c33';

let server: TestServer;
let config: ReturnType<typeof tempConfigDir>;
let reads = 0;
/** Who is running now: the published queue, or that and one more. */
let running: string[] = [RUNNING];
let pending = [PENDING];

beforeAll(async () => {
  config = tempConfigDir();
  server = await startTestServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const path = url.pathname;
    if (path === '/api/system_stats') return json(res, 200, { system: { os: 'linux', python_version: '3.12', embedded_python: false, comfyui_version: '0.3.66', cloud_version: 'c0ffee', pytorch_version: '2.8', argv: [], ram_total: 1, ram_free: 1 }, devices: [] });
    if (path === `/api/job/${RUNNING}/status`) return json(res, 200, { ...published.job_status, id: RUNNING, status: ++reads < 3 ? 'in_progress' : 'completed', error_message: null });
    if (path === `/api/job/${FAILED}/status`) return json(res, 200, published.job_status);
    if (path.startsWith('/api/job/')) return json(res, 404, published.error);
    if (path === '/api/jobs') {
      const limit = Number(url.searchParams.get('limit'));
      return json(res, 200, { jobs: published.jobs_list.jobs.slice(0, limit), pagination: { ...published.jobs_list.pagination, limit, has_more: limit < 2 } });
    }
    if (path === '/api/queue' && req.method === 'GET') {
      const tuple = published.queue.queue_running[0]!;
      return json(res, 200, { queue_running: running.map((id) => [tuple[0], id, ...tuple.slice(2)]), queue_pending: pending.map((id) => [2, id, {}, ['3'], { create_time: 1 }]) });
    }
    if (path === '/api/queue' && req.method === 'POST') {
      const deleted = JSON.parse(req.body.toString()).delete.filter((id: string) => pending.includes(id));
      pending = pending.filter((id) => !deleted.includes(id));
      return json(res, 200, { deleted });
    }
    if (path === '/api/interrupt') return res.writeHead(200).end();
    json(res, 404, published.error);
  });
});
afterAll(async () => {
  config.cleanup();
  await server.close();
});

const wes = (args: string[]) => runWes(args, { configDir: config.dir, env: { WES_BASE_URL: server.url, WES_API_KEY: 'k-published' } });

describe('wes legacy against the published cloud v1 document', () => {
  it('status --wait ends on `completed` (exit 0) and on `error` with its error_message (exit 3)', async () => {
    const done = await wes(['legacy', 'status', RUNNING, '--wait', '--interval', '0.05']);
    expect([done.code, done.stdout.trim()], done.stderr).toEqual([0, 'completed']);
    expect(done.stderr).toContain(`prompt ${RUNNING}: in_progress`);
    expect(done.stderr.match(/: completed/g)).toHaveLength(1);
    const failed = await wes(['legacy', 'status', FAILED, '--wait']);
    expect(failed.code).toBe(3);
    expect(failed.stderr).toContain(`error: prompt ${FAILED} ended with status error: CUDA out of memory`);
    const json = await wes(['legacy', 'status', FAILED, '--json']);
    expect(JSON.parse(json.stdout)).toEqual(published.job_status); // the answer as sent
    // Found to be the cloud by its own system_stats, at one probe.
    expect(server.requests.filter((r) => r.url === '/api/system_stats')).toHaveLength(1);
  });

  it('list: the job list a page at a time, with the next page named', async () => {
    const res = await wes(['legacy', 'list', '--status', 'failed,pending', '--limit', '1']);
    expect(res.code, res.stderr).toBe(0);
    expect(server.requests.at(-1)!.url).toBe('/api/jobs?offset=0&limit=1&status=failed%2Cpending');
    expect(res.stdout).toMatch(new RegExp(`^${FAILED}\\tfailed\\t2026-\\d\\d-\\d\\dT[\\d:]+Z\\t0\\tRuntimeError in node 5: boom$`, 'm'));
    expect(res.stderr).toContain('1 job(s) of 2; the next page: --offset 1');
    const json = await wes(['legacy', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ ...published.jobs_list, pagination: { ...published.jobs_list.pagination, limit: 100, has_more: false } });
    const bad = await wes(['legacy', 'list', '--status', 'done']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown status "done"');
  });

  it('queue shows the published tuple; queue delete takes the pending job and names the running one', async () => {
    const queue = await wes(['legacy', 'queue']);
    expect(queue.stdout).toMatch(new RegExp(`^running\\t1\\t${RUNNING}\\t1\\t3$`, 'm'));
    const res = await wes(['legacy', 'queue', 'delete', PENDING, RUNNING]);
    expect(res.code).toBe(6);
    expect(res.stderr).toContain(`deleted 1 pending prompt(s): ${PENDING}`);
    expect(res.stderr).toContain(`prompt ${RUNNING} is running`);
    expect(JSON.parse(server.requests.find((r) => r.method === 'POST' && r.url === '/api/queue')!.body.toString())).toEqual({ delete: [PENDING] });
  });

  it('interrupt ID: refused while another job runs (the cloud stops them all), sent when it is the only one', async () => {
    running = [RUNNING, OTHER];
    const refused = await wes(['legacy', 'interrupt', RUNNING]);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain(`1 other(s) are running (${OTHER}); nothing was interrupted`);
    expect(refused.stderr).toContain(`hint: stop one job alone with \`wes jobs cancel ${RUNNING}\``);
    expect(server.requests.some((r) => r.url === '/api/interrupt')).toBe(false);
    running = [RUNNING];
    const sent = await wes(['legacy', 'interrupt', RUNNING]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(server.requests.filter((r) => r.url === '/api/interrupt').map((r) => r.body.length)).toEqual([0]); // no id: the route takes none
  });

  it('an error body `{code, message}` is read as such', async () => {
    const res = await wes(['legacy', 'status', '00000000-aaaa-4bbb-8ccc-000000000000']);
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('error: Job not found');
  });
});
