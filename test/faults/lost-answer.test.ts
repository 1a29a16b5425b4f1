// A POST whose answer is lost after the service acted on it (the job was created, the connection
// cut before a byte came back) ends in doubt: the error names the Idempotency-Key and the exact
// command that finds the result; running that command returns the same job, not a second one.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { addFaults, imageWorkflow } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst, writeTemp } from '../cli/jobs-env.js';
import { countsFrom, jobsTagged, useFaultServer } from './kit.js';

const SUBMIT = 'POST /api/v2/jobs';

describe('keys in doubtful endings', () => {
  const fx = useFaultServer({ stepMs: 5 });
  const wes = wesAgainst(() => fx.server);
  const dir = useTempDir();

  it('jobs submit: every answer lost → the key and the command are named; that command finds the one job', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'lost-1', steps: 1 }));
    await addFaults(fx.server, { match: SUBMIT, action: 'lose', count: 2 });
    const counts = countsFrom(fx.server);
    const res = await wes(['jobs', 'submit', flow, '--retries', '1', '--set', '2.steps=2']);
    expect(res.code).toBe(1);
    expect(counts.delta(SUBMIT)).toBe(2);
    expect(jobsTagged(fx.server, 'lost-1')).toHaveLength(1);
    const command = /run: (wes jobs submit .*--idempotency-key (\S+))$/m.exec(res.stderr);
    expect(command, res.stderr).not.toBeNull();
    expect(command![1]).toContain(`--set 2.steps=2`);

    // The named command, run as a shell would: the same job comes back, no second one is made.
    const words = execFileSync('sh', ['-c', `for w in ${command![1].replace(/^wes /, '')}; do printf '%s\\0' "$w"; done`]).toString().split('\0').filter(Boolean);
    const again = await wes(words);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe(jobsTagged(fx.server, 'lost-1')[0]);
    expect(jobsTagged(fx.server, 'lost-1')).toHaveLength(1);
  });

  it('jobs submit --json: the key is error.details.idempotency_key', async () => {
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'lost-2', steps: 1 }));
    await addFaults(fx.server, { match: SUBMIT, action: 'lose', count: 1 });
    const res = await wes(['jobs', 'submit', flow, '--retries', '0', '--json', '--idempotency-key', 'k-lost-2']);
    expect(res.code).toBe(1);
    const { error } = JSON.parse(res.stderr) as { error: { details: { idempotency_key: string } } };
    expect(error.details.idempotency_key).toBe('k-lost-2');
  });

  it('a refusal is not in doubt: no key is offered', async () => {
    const flow = writeTemp(dir(), { '1': { class_type: 'NoSuchNode', inputs: {} } });
    const res = await wes(['jobs', 'submit', flow]);
    expect(res.code).toBe(6);
    expect(res.stderr).not.toContain('--idempotency-key');
  });

  it('models run: a lost answer names the key and the run command', async () => {
    await addFaults(fx.server, { match: 'POST /v1/models/dev/echo', action: 'lose', count: 1 });
    const res = await wes(['models', 'run', 'dev/echo', '-d', '{"a":1}', '--idempotency-key', 'k-run-1', '--retries', '0']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`collect its result with: wes models run dev/echo -d '{"a":1}' --idempotency-key k-run-1`);
  });
});
