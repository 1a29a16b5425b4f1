// The jobs API on the serverless deployment through the built binary: a base URL with `{deployment}`,
// links under /deployment/{id}/api/v2 resolved against the answering origin, logs (text, 204,
// 404), signed URLs that expire, and the deployment error codes.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addFaults, imageWorkflow, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { ndjson, seen, useTempDir, wesAgainst, writeTemp } from './jobs-env.js';

const DEPLOYMENT = 'dev-deployment';
const PREFIX = `/deployment/${DEPLOYMENT}`;

async function setDeploymentState(url: string, state: string): Promise<void> {
  const res = await fetch(`${url}/__dev/deployment`, { method: 'POST', body: JSON.stringify({ state }) });
  if (res.status !== 200) throw new Error(`deployment state: ${res.status}`);
}

describe('wes jobs on a serverless deployment', () => {
  // Signed URLs live 1 s: shorter than the client's refresh margin, so every download re-reads first.
  const ctx = useDevServer({ deployment: 'serverless', faults: true, urlTtlMs: 1000 });
  const dir = useTempDir();
  const base = wesAgainst(() => ctx.server);
  const wes: typeof base = (args, opts = {}) => base(['--deployment', DEPLOYMENT, ...args], { ...opts, baseUrl: `${ctx.server.url}/deployment/{deployment}` });

  it('a base URL without the deployment prefix: the submit\'s 404 names the base URL and the prefix, not a job id', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ steps: 1 }));
    const res = await base(['--deployment', DEPLOYMENT, 'jobs', 'submit', flow], { baseUrl: ctx.server.url });
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('check the base URL');
    expect(res.stderr).toContain('/deployment/ID');
    expect(res.stderr).not.toContain('check the id');
  });

  it('submits, follows links under the mount prefix and downloads; get shows deployment and release', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ steps: 4 }));
    const out = join(dir(), 'sl');
    const res = await wes(['jobs', 'submit', flow, '--download', out, '--verbose']);
    expect(res.code, res.stderr).toBe(0);
    const id = res.stdout.split('\n')[0]!;
    const origin = ctx.server.url;
    expect(res.stderr).toContain(`> POST ${origin}${PREFIX}/api/v2/jobs\n`);
    expect(res.stderr).toContain(`> GET ${origin}${PREFIX}/api/v2/jobs/${id}\n`);
    expect(res.stderr).toContain(`> GET ${origin}${PREFIX}/api/v2/jobs/${id}/events\n`);
    expect(res.stderr).not.toContain(`${PREFIX}${PREFIX}`);
    expect(readdirSync(out).sort()).toEqual(['job.json', 'wes_00001_.png']);

    const get = await wes(['jobs', 'get', id]);
    expect(get.stdout).toMatch(new RegExp(`^deployment\\s+${DEPLOYMENT}$`, 'm'));
    expect(get.stdout).toMatch(/^release\s+rel-0001$/m);
    const json = await wes(['jobs', 'get', id, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ deployment_id: DEPLOYMENT, release_id: 'rel-0001', urls: { logs: `${PREFIX}/api/v2/jobs/${id}/logs` } });
  });

  it('logs: the finished job carries its log (job.logs), printed without a request to the logs link; --json keeps the object', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ steps: 2 }));
    const submitted = await wes(['jobs', 'submit', flow, '--wait', '--json']);
    const id = ndjson(submitted.stdout)[0]!.id as string;
    const before = seen(ctx.server, `GET /api/v2/jobs/${id}/logs`);
    const res = await wes(['jobs', 'logs', id]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`got prompt ${id}`);
    expect(res.stdout).toMatch(/Prompt executed in [\d.]+ seconds\n$/);
    expect(seen(ctx.server, `GET /api/v2/jobs/${id}/logs`)).toBe(before);
    const json = await wes(['jobs', 'logs', id, '--json']);
    expect(JSON.parse(json.stdout).logs).toMatchObject({ text: expect.stringContaining(`got prompt ${id}`), truncated: false, captured_at: expect.any(String) });
  });

  it('re-reads the job for a URL about to expire, and again when the signed host refuses an expired one', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ steps: 2, prefix: 'ttl' }));
    const submitted = await wes(['jobs', 'submit', flow, '--wait', '--json']);
    const id = ndjson(submitted.stdout)[0]!.id as string;
    await waitForJob(ctx.server, `${PREFIX}/api/v2/jobs/${id}`, ['succeeded']);
    const reads = () => seen(ctx.server, `GET /api/v2/jobs/${id}`);
    const before = reads();
    // The first signed fetch is held past the URL's life: the signed host answers 403.
    await addFaults(ctx.server, { match: 'GET /signed/**', action: 'delay', delay_ms: 1300 });
    const res = await wes(['jobs', 'download', id, join(dir(), 'ttl'), '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)[0]).toMatchObject({ name: 'ttl_00001_.png', verified: expect.any(Boolean) });
    // The command's own read, one for the URL inside the refresh margin, one after the 403.
    expect(reads() - before).toBe(3);
  });

  it('renders deployment errors with their hints: not ready (exit 7), stopped (exit 6)', async () => {
    const flow = writeTemp(dir(), imageWorkflow());
    try {
      await setDeploymentState(ctx.server.url, 'not_ready');
      const notReady = await wes(['jobs', 'submit', flow, '--retries', '0']);
      expect(notReady.code).toBe(7);
      expect(notReady.stderr).toContain('code deployment_not_ready');
      expect(notReady.stderr).toMatch(/hint: .*retried automatically/);
      await setDeploymentState(ctx.server.url, 'stopped');
      const stopped = await wes(['jobs', 'submit', flow, '--json']);
      expect(stopped.code).toBe(6);
      expect(JSON.parse(stopped.stderr).error).toMatchObject({ code: 'deployment_stopped', status: 422 });
    } finally {
      await setDeploymentState(ctx.server.url, 'ready');
    }
  });

  it('a base URL without the deployment prefix finds no job API there (exit 5)', async () => {
    const res = await base(['jobs', 'get', '00000000-0000-0000-0000-000000000000']);
    expect(res.code).toBe(5);
  });
});
