// Every retry wait of a second or more is one stderr line, on every surface, hidden by --quiet:
// a command that is fine but waiting must not look stuck.
import { describe, expect, it } from 'vitest';
import { addFaults, imageWorkflow } from '../helpers/dev-server.js';
import { wesAgainst } from '../cli/jobs-env.js';
import { finishedJobId, useFaultServer } from './kit.js';

const fx = useFaultServer({ stepMs: 5 });
const wes = wesAgainst(() => fx.server);

// Each test reads URLs of its own (its own jobs, /v1/models, /api/queue), and each of its waits is
// the server's own Retry-After: the tests and the runs within them wait side by side.
describe.concurrent('visible retry waits', () => {
  const finished = (prefix: string) => finishedJobId(fx.server, imageWorkflow({ prefix, steps: 1 }));

  it('job API: a 503 with Retry-After 1 prints one line naming the wait and the attempt', async () => {
    const [id, quietId] = await Promise.all([finished('rn1'), finished('rn1-quiet')]);
    await addFaults(fx.server, [
      { match: `GET /api/v2/jobs/${id}`, action: 'status', status: 503, retry_after: 1, body: { error: { code: 'service_unavailable', message: 'busy' } } },
      { match: `GET /api/v2/jobs/${quietId}`, action: 'status', status: 503, retry_after: 1 },
    ]);
    const [res, quiet] = await Promise.all([wes(['jobs', 'get', id]), wes(['jobs', 'get', quietId, '--quiet'])]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr.match(/^service busy \(503\); retrying in 1 s \(attempt 2\/5\)$/gm)).toHaveLength(1);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
  });

  it('router (429) and v1 (503) waits are shown the same way', async () => {
    await addFaults(fx.server, [
      { match: 'GET /v1/models', action: 'status', status: 429, retry_after: 1, body: { error_type: 'rate_limited', detail: 'slow down' } },
      { match: 'GET /api/queue', action: 'status', status: 503, retry_after: 1 },
    ]);
    const [models, queue] = await Promise.all([wes(['models', 'list', '--limit', '1']), wes(['legacy', 'queue'])]);
    expect(models.code, models.stderr).toBe(0);
    expect(models.stderr).toMatch(/^rate limited \(429\); retrying in 1 s \(attempt 2\/5\)$/m);
    expect(queue.code, queue.stderr).toBe(0);
    expect(queue.stderr).toMatch(/^service busy \(503\); retrying in 1 s \(attempt 2\/5\)$/m);
  });

  it('a short backoff passes without a word', async () => {
    const id = await finished('rn3');
    await addFaults(fx.server, { match: `GET /api/v2/jobs/${id}`, action: 'status', status: 502 }); // no Retry-After: the backoff's first step (a Retry-After waits at least 1 s)
    const res = await wes(['jobs', 'get', id]);
    expect(res.code).toBe(0);
    expect(res.stderr).not.toMatch(/retrying/);
  });
});
