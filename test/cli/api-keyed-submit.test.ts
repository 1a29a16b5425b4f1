// `wes api POST /api/v2/jobs -H 'Idempotency-Key: K'` (the README's own example) keeps the promise
// `jobs submit` keeps: a 5xx said after the job was made, or an answer lost, is never sent again
// and ends in doubt (exit 11) naming the key and `wes jobs find --key K`; run again, the key is
// refused (422) whatever the body, and the hint says to find the job, not to take a new key.
import { describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { addFaults, imageWorkflow, useDevServer } from '../helpers/dev-server.js';
import { seen, useTempDir, writeTemp } from './jobs-env.js';

describe('wes api with an Idempotency-Key on a job submit', () => {
  const ctx = useDevServer({ faults: true, stepMs: 2 });
  const dir = useTempDir();
  const wes = (args: string[]) => runWes(['api', ...args], { env: { WES_BASE_URL: ctx.server.url, WES_API_KEY: ctx.server.apiKey } });

  it.each([
    ['a 503 said after the job was made', { action: 'after', status: 503, body: { error: { code: 'service_unavailable', message: 'busy' } } }, 'k-after-503'],
    ['an answer lost', { action: 'lose' }, 'k-lost'],
  ])('%s: sent once, exit 11 with the key and the find command', async (_what, fault, key) => {
    const body = writeTemp(dir(), { workflow: imageWorkflow({ prefix: key, steps: 1 }) });
    await addFaults(ctx.server, { match: 'POST /api/v2/jobs', ...fault });
    const posts = seen(ctx.server, 'POST /api/v2/jobs');
    const res = await wes(['POST', '/api/v2/jobs', '--input', body, '-H', `Idempotency-Key: ${key}`]);
    expect(res.code, res.stderr).toBe(11);
    expect(res.stderr).toContain('may or may not have made a job');
    expect(res.stderr).toContain(`wes jobs find --key ${key}`);
    expect(res.stderr).toContain('Take a new key only once you know no job was made');
    expect(seen(ctx.server, 'POST /api/v2/jobs') - posts).toBe(1);

    // Run again: the key is spent whatever the body; the hint finds the job, and no new key is urged.
    const again = await wes(['POST', '/api/v2/jobs', '--input', body, '-H', `Idempotency-Key: ${key}`]);
    expect(again.code).toBe(6);
    expect(again.stderr).toContain('whatever the body');
    expect(again.stderr).toContain(`wes jobs find --key ${key}`);
    expect(again.stderr).not.toMatch(/different body|Use a new --idempotency-key/);
  });

  it('a POST to another job API route, or without a key, is not a single-use submit', async () => {
    await addFaults(ctx.server, { match: 'POST /api/v2/jobs', action: 'status', status: 503, body: { error: { code: 'service_unavailable', message: 'busy' } } });
    const body = writeTemp(dir(), { workflow: imageWorkflow({ prefix: 'unkeyed', steps: 1 }) });
    const res = await wes(['POST', '/api/v2/jobs', '--input', body, '--retries', '0']);
    expect(res.code).toBe(7);
    expect(res.stderr).not.toContain('may or may not');
  });
});
