// --read-timeout: a response whose headers or body bytes stop coming is abandoned after that many
// seconds and handled as a dropped connection (retried where safe, the event stream left to
// polling, a download resumed with Range), while a model run the router holds open is not cut.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addFaults, bytesWorkflow, imageWorkflow, submitJob } from '../helpers/dev-server.js';
import { wesAgainst } from '../cli/jobs-env.js';
import { countsFrom, finishedJobId, useFaultServer } from './kit.js';

const fx = useFaultServer({ stepMs: 5 });
const wes = wesAgainst(() => fx.server);
const work = mkdtempSync(join(tmpdir(), 'wes-read-timeout-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const finished = (workflow: Record<string, unknown>) => finishedJobId(fx.server, workflow);

describe('read timeout', () => {
  // These two count requests exactly, and a read timeout that fired on a slow answer would add one:
  // they run alone, before the rest.
  it('abandons an answer whose headers never come and one that stops mid-body; the retries succeed', async () => {
    const id = await finished(imageWorkflow({ prefix: 'rt1', steps: 1 }));
    const self = `GET /api/v2/jobs/${id}`;
    await addFaults(fx.server, [
      { match: self, action: 'delay', delay_ms: 20_000 },
      { match: self, action: 'stall', after_bytes: 20 },
    ]);
    const counts = countsFrom(fx.server);
    const res = await wes(['jobs', 'get', id, '--json', '--read-timeout', '0.5']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ id, status: 'succeeded' });
    // Three reads: the delayed answer would have come after 20 s and ended the command with one.
    expect(counts.delta(self)).toBe(3);
  });

  it('a signed download that stalls mid-body goes on from the bytes it has (Range) and ends verified', async () => {
    const id = await finished(bytesWorkflow(300_000));
    await addFaults(fx.server, { match: 'GET /signed/**', action: 'stall', after_bytes: 100_000 });
    const counts = countsFrom(fx.server);
    const out = join(work, 'dl');
    const res = await wes(['jobs', 'download', id, out, '--json', '--read-timeout', '0.5']);
    expect(res.code, res.stderr).toBe(0);
    const saved = JSON.parse(res.stdout) as Array<{ bytes: number; verified: boolean }>;
    expect(saved).toMatchObject([{ bytes: 300_000, verified: true }]);
    expect(counts.matching(/^GET \/signed\//)).toBe(2);
    expect(readdirSync(out).some((n) => n.endsWith('.part'))).toBe(false);
  });

  // Each of these reads URLs of its own and counts only those; how long the server stalls or holds
  // an answer does not depend on load: they wait side by side.
  it.concurrent('names the read timeout when every attempt stalls (WES_READ_TIMEOUT)', async () => {
    const id = await finished(imageWorkflow({ prefix: 'rt2', steps: 1 }));
    const self = `GET /api/v2/jobs/${id}`;
    await addFaults(fx.server, { match: self, action: 'stall', count: 2 });
    const counts = countsFrom(fx.server);
    const res = await wes(['jobs', 'get', id, '--retries', '1'], { env: { WES_READ_TIMEOUT: '0.4' } });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/sent nothing for 0\.4 s \(read timeout\)/);
    expect(res.stderr).toMatch(/--read-timeout/);
    expect(counts.delta(self)).toBe(2);
  });

  it.concurrent('a stalled event stream is left to polling: the watch ends 0', async () => {
    const id = (await submitJob(fx.server, imageWorkflow({ prefix: 'rt3', steps: 60 }))).body.id as string;
    const events = `GET /api/v2/jobs/${id}/events`;
    await addFaults(fx.server, { match: events, action: 'stall', after_bytes: 10 });
    const res = await wes(['jobs', 'watch', id, '--interval', '0.2', '--read-timeout', '0.3']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`job ${id} succeeded`);
  });

  it.concurrent('does not cut a model run the router holds open longer than the read timeout', async () => {
    await addFaults(fx.server, { match: 'POST /v1/models/dev/echo', action: 'delay', delay_ms: 1500 });
    const counts = countsFrom(fx.server);
    const res = await wes(['models', 'run', 'dev/echo', '-d', '{"held":true}', '--read-timeout', '0.5']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('{"held":true}');
    expect(counts.delta('POST /v1/models/dev/echo')).toBe(1);
  });

  it.concurrent('refuses a read timeout that is not a number of seconds with exit 2, naming where it came from', async () => {
    const res = await wes(['jobs', 'get', 'any-id'], { env: { WES_READ_TIMEOUT: 'soon' } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('WES_READ_TIMEOUT');
  });
});
