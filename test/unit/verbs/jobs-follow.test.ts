// `jobs watch` and `jobs cancel` on a fake client and a fake clock: the polls are paced by
// --interval (the clock records each wait; no test waits for real time), the exit code is the
// job's outcome, --json is one Job per changed snapshot, and the cancel's rules hold.
import { describe, expect, it } from 'vitest';
import { JobsClient } from '../../../src/clients/jobs/client.js';
import { ExitCode } from '../../../src/errors.js';
import { runVerb } from '../../helpers/fake-factory.js';
import { FakeClock } from '../../helpers/fakes/clock.js';
import { FakeJobsClient, job } from '../../helpers/fakes/jobs.js';

const ID = '0b5e7c1a-9f3d-4c2e-8a61-3e2f4d5c6b7a';
const queued = job({ id: ID, status: 'queued', queue_position: 2 });
const running = job({ id: ID, status: 'running', started_at: '2026-03-01T12:00:01Z' });
const ended = (status: string) => job({ id: ID, status, started_at: '2026-03-01T12:00:01Z', completed_at: '2026-03-01T12:00:09Z' });

function follow(...snapshots: ReturnType<typeof job>[]) {
  return new FakeJobsClient({ [ID]: snapshots });
}

describe('jobs watch (fake client, fake clock)', () => {
  it('polls at the --interval until the job ends, and exits 0 when it succeeded', async () => {
    const client = follow(queued, running, running, ended('succeeded'));
    const clock = new FakeClock();
    const r = await runVerb(['jobs', 'watch', ID, '--no-events', '--interval', '3'], { clients: [[JobsClient, client]], clock });
    expect(r.code, r.stderr).toBe(0);
    expect(client.names()).toEqual(['get', 'refresh', 'refresh', 'refresh']);
    expect(clock.sleeps).toEqual([3000, 3000, 3000]);
  });

  it('the default interval is one second', async () => {
    const clock = new FakeClock();
    const r = await runVerb(['jobs', 'watch', ID, '--no-events'], { clients: [[JobsClient, follow(queued, ended('succeeded'))]], clock });
    expect(r.code).toBe(0);
    expect(clock.sleeps).toEqual([1000]);
  });

  for (const [status, code] of [
    ['failed', ExitCode.FAILED],
    ['expired', ExitCode.FAILED],
    ['canceled', ExitCode.CANCELED],
  ] as const) {
    it(`a job that ends ${status} exits ${code}`, async () => {
      const r = await runVerb(['jobs', 'watch', ID, '--no-events'], { clients: [[JobsClient, follow(running, ended(status))]] });
      expect(r.code).toBe(code);
    });
  }

  it('--json: one Job per changed snapshot (NDJSON), an unchanged poll prints nothing', async () => {
    const r = await runVerb(['jobs', 'watch', ID, '--no-events', '--json'], { clients: [[JobsClient, follow(queued, running, running, ended('succeeded'))]] });
    expect(r.code).toBe(0);
    const docs = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(docs.map((d) => d.status)).toEqual(['queued', 'running', 'succeeded']);
    expect(docs[2]).toEqual(ended('succeeded'));
  });

  it('an already-ended job is read once and never polled', async () => {
    const client = follow(ended('succeeded'));
    const clock = new FakeClock();
    const r = await runVerb(['jobs', 'watch', ID, '--no-events'], { clients: [[JobsClient, client]], clock });
    expect(r.code).toBe(0);
    expect(client.names()).toEqual(['get']);
    expect(clock.sleeps).toEqual([]);
  });

  it('--interval 0 is refused before any request (exit 2)', async () => {
    const client = follow(queued);
    const r = await runVerb(['jobs', 'watch', ID, '--interval', '0'], { clients: [[JobsClient, client]] });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain('--interval');
    expect(client.calls).toEqual([]);
  });

  it('a 429 from a poll backs off by its Retry-After instead of ending the watch', async () => {
    const client = follow(queued, ended('succeeded'));
    const refresh = client.refresh.bind(client);
    let throttled = false;
    client.refresh = async (current) => {
      if (!throttled) {
        throttled = true;
        client.calls.push({ method: 'refresh', args: [current.job.id] });
        const { ApiError } = await import('../../../src/errors.js');
        throw new ApiError('slow down', { status: 429, origin: 'jobs', code: 'rate_limited', retryAfterSeconds: 7 });
      }
      return refresh(current);
    };
    const clock = new FakeClock();
    const r = await runVerb(['jobs', 'watch', ID, '--no-events'], { clients: [[JobsClient, client]], clock });
    expect(r.code, r.stderr).toBe(0);
    expect(clock.sleeps).toEqual([1000, 7000]);
  });
});

describe('jobs cancel (fake client, fake clock)', () => {
  it('follows the cancel link of a running job, reads it back and prints the Job as read with --json', async () => {
    const client = follow(running, { ...running, status: 'canceling' });
    const r = await runVerb(['jobs', 'cancel', ID, '--json'], { clients: [[JobsClient, client]] });
    expect(r.code).toBe(0);
    expect(client.names()).toEqual(['get', 'cancel', 'refresh']);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: ID, status: 'canceling' });
    expect(r.stderr).toContain(`✓ asked to cancel job ${ID}: it is canceling`);
  });

  it('a job still running when read back after the cancel is said to run on, never "canceled"', async () => {
    const client = follow(running);
    const r = await runVerb(['jobs', 'cancel', ID], { clients: [[JobsClient, client]] });
    expect(r.code).toBe(0);
    expect(client.names()).toEqual(['get', 'cancel', 'refresh']);
    expect(r.stderr).toContain(`asked to cancel job ${ID}, but it is still running: this service may not stop it`);
    expect(r.stderr).not.toContain('✓');
  });

  it('a job that has already ended is not canceled: said, exit 0', async () => {
    const client = follow(ended('succeeded'));
    const r = await runVerb(['jobs', 'cancel', ID], { clients: [[JobsClient, client]] });
    expect(r.code).toBe(0);
    expect(client.names()).toEqual(['get']);
    expect(r.stderr).toContain('has already ended (succeeded); nothing to cancel');
    expect(r.stdout).toBe('');
  });

  it('--wait follows the job until it is canceled (exit 0 here, not 10), polling at the interval', async () => {
    const client = follow(running, running, ended('canceled'));
    const clock = new FakeClock();
    const r = await runVerb(['jobs', 'cancel', ID, '--wait', '--no-events', '--interval', '2'], { clients: [[JobsClient, client]], clock });
    expect(r.code, r.stderr).toBe(0);
    expect(client.names()).toEqual(['get', 'cancel', 'refresh', 'refresh']);
    expect(clock.sleeps).toEqual([2000]);
  });

  it('--wait on a job that ran to the end anyway says the cancel did not take', async () => {
    const client = follow(running, ended('succeeded'));
    const r = await runVerb(['jobs', 'cancel', ID, '--wait', '--no-events'], { clients: [[JobsClient, client]] });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('the cancel did not take effect');
  });

  it('--interval without --wait is a usage error naming both, before any request', async () => {
    const client = follow(running);
    const r = await runVerb(['jobs', 'cancel', ID, '--interval', '2'], { clients: [[JobsClient, client]] });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/--interval.*--wait/);
    expect(client.calls).toEqual([]);
  });

  it('an unknown job: exit 4, no cancel sent', async () => {
    const client = new FakeJobsClient();
    const r = await runVerb(['jobs', 'cancel', ID], { clients: [[JobsClient, client]] });
    expect(r.code).toBe(ExitCode.NOT_FOUND);
    expect(client.names()).toEqual(['get']);
  });
});
