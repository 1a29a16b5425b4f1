// Issue 26's proofs for a single job submit under single-use Idempotency-Keys: a submit with no
// usable answer is never sent again; its job is found by the key its `metadata` label names, in
// the server's job list where there is one, and the command carries on; without a list it ends
// in doubt (exit 11) naming the key and `wes jobs find --key`. A 5xx is shown as the 5xx it is.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addFaults, imageWorkflow } from '../helpers/dev-server.js';
import { interruptWhen, useTempDir, wesAgainst, writeTemp } from '../cli/jobs-env.js';
import { countsFrom, jobsTagged, useFaultServer } from './kit.js';

const SUBMIT = 'POST /api/v2/jobs';

describe('a lost submit answer on a server with a job list', () => {
  const fx = useFaultServer({ stepMs: 5, deployment: 'self-hosted' });
  const wes = wesAgainst(() => fx.server);
  const dir = useTempDir();

  it('finds the one job by its key, prints its id and goes on with --wait --download', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'lost-wait', steps: 2 }));
    await addFaults(fx.server, { match: SUBMIT, action: 'lose' });
    const counts = countsFrom(fx.server);
    const out = join(dir(), 'out-lost');
    const res = await wes(['jobs', 'submit', flow, '--download', out]);
    expect(res.code, res.stderr).toBe(0);
    expect(counts.delta(SUBMIT)).toBe(1);
    const jobs = jobsTagged(fx.server, 'lost-wait');
    expect(jobs).toHaveLength(1);
    expect(res.stdout.split('\n')[0]).toBe(jobs[0]);
    expect(res.stderr).toContain(`the submit's answer was lost; found its job ${jobs[0]}`);
    expect(readdirSync(out).some((name) => name.endsWith('.png'))).toBe(true);
  });

  it('the engine down (503), then up: the real cause is shown, never a key refusal; the next submit works', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'engine-down', steps: 1 }));
    await fetch(`${fx.server.url}/__dev/engine`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state: 'down' }) });
    const counts = countsFrom(fx.server);
    const down = await wes(['jobs', 'submit', flow]);
    await fetch(`${fx.server.url}/__dev/engine`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state: 'up' }) });
    expect(counts.delta(SUBMIT)).toBe(1);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('HTTP 503');
    expect(down.stderr).not.toContain('idempotency_key_reuse');
    expect(down.stderr).toMatch(/made no job .*submitting again is safe/);
    const up = await wes(['jobs', 'submit', flow]);
    expect(up.code, up.stderr).toBe(0);
    expect(jobsTagged(fx.server, 'engine-down')).toEqual([up.stdout.trim()]);
  });

  it('jobs find --key: the job a key made (exit 0), and no job for a key never sent (exit 5)', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'find-me', steps: 1 }));
    const made = await wes(['jobs', 'submit', flow, '--idempotency-key', 'find-me-key', '--label', 'run=nightly']);
    expect(made.code, made.stderr).toBe(0);
    const found = await wes(['jobs', 'find', '--key', 'find-me-key', '--json']);
    expect(found.code, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout)).toMatchObject({ id: made.stdout.trim(), metadata: 'run=nightly wes-key:find-me-key' });
    const none = await wes(['jobs', 'find', '--key', 'never-sent']);
    expect(none.code).toBe(5);
    expect(none.stderr).toContain('no job on the server carries Idempotency-Key never-sent: the submit made none');
  });

  it('Ctrl-C while the submit is on its way: exit 130, naming the key and the command that finds its job', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'ctrl-c', steps: 1 }));
    await addFaults(fx.server, { match: SUBMIT, action: 'delay', delay_ms: 3000 });
    const res = await wes(['jobs', 'submit', flow, '--idempotency-key', 'ctrl-c-key', '--verbose'], { onSpawn: interruptWhen(/> POST .*\/api\/v2\/jobs/) });
    expect(res.code).toBe(130);
    expect(res.stderr).toContain('wes jobs find --key ctrl-c-key');
  });
});

describe('a lost submit answer on a server without a job list', () => {
  const fx = useFaultServer({ stepMs: 5, jobList: false });
  const base = wesAgainst(() => fx.server);
  const wes: typeof base = (args, opts = {}) => base(args, { ...opts, env: { WES_JOB_API: 'cloud', ...opts.env } });
  const dir = useTempDir();

  it('one POST, exit 11 in doubt, naming the key and `wes jobs find --key`; --json has it in details', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'no-list', steps: 1 }));
    // Comfy Cloud: pinned, so the lost POST is the one that made the job (not a refusal of labels).
    await addFaults(fx.server, { match: SUBMIT, action: 'lose' });
    const counts = countsFrom(fx.server);
    const res = await wes(['jobs', 'submit', flow, '--idempotency-key', 'no-list-key', '--json']);
    expect(res.code).toBe(11);
    expect(counts.delta(SUBMIT)).toBe(1);
    expect(jobsTagged(fx.server, 'no-list')).toHaveLength(1);
    expect(res.stdout).toBe('');
    const { error } = JSON.parse(res.stderr) as { error: { code: string; details: { idempotency_key: string } } };
    expect(error.code).toBe('in_doubt');
    expect(error.details.idempotency_key).toBe('no-list-key');

    const human = await (async () => {
      await addFaults(fx.server, { match: SUBMIT, action: 'lose' });
      return wes(['jobs', 'submit', flow]);
    })();
    expect(human.code).toBe(11);
    expect(human.stderr).toContain('may or may not have made a job');
    expect(human.stderr).toMatch(/wes jobs find --key [0-9a-f-]{36}/);
    expect(human.stderr).not.toMatch(/run again|same key/i);

    const find = await wes(['jobs', 'find', '--key', 'no-list-key']);
    expect(find.code).toBe(5);
    expect(find.stderr).toContain('Comfy Cloud offers no job list to search');
  });

  it('a key used before, where no list can show its job: the refusal is explained without guessing at the body', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'reuse', steps: 1 }));
    expect((await wes(['jobs', 'submit', flow, '--idempotency-key', 'reuse-key'])).code).toBe(0);
    const again = await wes(['jobs', 'submit', flow, '--idempotency-key', 'reuse-key']);
    expect(again.code).toBe(6);
    expect(again.stderr).toContain('single use');
    expect(again.stderr).not.toContain('different body');
    expect(jobsTagged(fx.server, 'reuse')).toHaveLength(1);
  });

  it('a refusal is not in doubt: no key or find command is offered', async () => {
    const flow = writeTemp(dir(), { '1': { class_type: 'NoSuchNode', inputs: {} } });
    const res = await wes(['jobs', 'submit', flow]);
    expect(res.code).toBe(6);
    expect(res.stderr).not.toContain('jobs find');
  });
});
