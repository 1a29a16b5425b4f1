// `wes jobs list` on this machine's history and on a fake job API client (--remote, --refresh):
// newest first, ages from the clock on a terminal and timestamps piped, --status and --limit,
// --refresh reading only the unfinished jobs, --remote's fallback when the server has no list.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobsClient } from '../../../src/clients/jobs/client.js';
import { JobHistory } from '../../../src/config/history.js';
import { DEFAULT_BASE_URL } from '../../../src/config/keys.js';
import { ApiError, ExitCode } from '../../../src/errors.js';
import { runVerb } from '../../helpers/fake-factory.js';
import { FakeClock } from '../../helpers/fakes/clock.js';
import { FakeJobsClient, job } from '../../helpers/fakes/jobs.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const OLD = 'aaaaaaaa-0000-4000-8000-000000000001';
const MID = 'bbbbbbbb-0000-4000-8000-000000000002';
const NEW = 'cccccccc-0000-4000-8000-000000000003';
let state: string;

beforeEach(() => {
  state = mkdtempSync(join(tmpdir(), 'wes-list-'));
  const history = new JobHistory(state, 'default', DEFAULT_BASE_URL);
  history.recordSubmitted(OLD, 'succeeded', 'a.json', new Date(NOW - 3 * 86_400_000));
  history.recordSubmitted(MID, 'running', 'b.json', new Date(NOW - 2 * 3_600_000));
  history.recordSubmitted(NEW, 'queued', 'c.json', new Date(NOW - 45_000));
});
afterEach(() => rmSync(state, { recursive: true, force: true }));

const env = () => ({ WES_STATE_DIR: state });

describe('jobs list (history, fake client, fake clock)', () => {
  it('piped: newest first, one tab-separated row each with the submit time, no request made', async () => {
    const client = new FakeJobsClient();
    const r = await runVerb(['jobs', 'list'], { clients: [[JobsClient, client]], env: env() });
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(rows.map((row) => row[0])).toEqual([NEW, MID, OLD]);
    expect(rows[0]).toEqual([NEW, 'queued', new Date(NOW - 45_000).toISOString(), 'c.json']);
    expect(client.calls).toEqual([]);
    expect(r.stderr).toContain('--refresh asks the service');
  });

  it('on a terminal the submit times are ages from the clock', async () => {
    const r = await runVerb(['jobs', 'list'], { clients: [[JobsClient, new FakeJobsClient()]], env: env(), clock: new FakeClock(NOW), terminal: { stdoutTTY: true, stderrTTY: true, columns: 120 } });
    expect(r.stdout).toContain('45 s ago');
    expect(r.stdout).toContain('2 h ago');
    expect(r.stdout).toContain('3 d ago');
  });

  it('--status and --limit choose the rows; --json prints the history entries', async () => {
    const r = await runVerb(['jobs', 'list', '--status', 'running', '--json'], { clients: [[JobsClient, new FakeJobsClient()]], env: env() });
    expect(JSON.parse(r.stdout).map((e: { id: string }) => e.id)).toEqual([MID]);
    const two = await runVerb(['jobs', 'list', '--limit', '2', '--json'], { clients: [[JobsClient, new FakeJobsClient()]], env: env() });
    expect(JSON.parse(two.stdout).map((e: { id: string }) => e.id)).toEqual([NEW, MID]);
  });

  it('--refresh reads only the unfinished jobs and records what the service says', async () => {
    const client = new FakeJobsClient({ [MID]: [job({ id: MID, status: 'succeeded' })], [NEW]: [job({ id: NEW, status: 'running' })] });
    const r = await runVerb(['jobs', 'list', '--refresh', '--json'], { clients: [[JobsClient, client]], env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(client.calls.map((c) => c.args[0]).sort()).toEqual([MID, NEW].sort());
    expect(JSON.parse(r.stdout).map((e: { status: string }) => e.status)).toEqual(['running', 'succeeded', 'succeeded']);
  });

  it('--remote and --refresh together are a usage error (exit 2)', async () => {
    const r = await runVerb(['jobs', 'list', '--remote', '--refresh'], { clients: [[JobsClient, new FakeJobsClient()]], env: env() });
    expect(r.code).toBe(ExitCode.USAGE);
  });

  it('--remote asks the server for its list with the limit and status given, and prints its jobs', async () => {
    const listed = [job({ id: NEW, status: 'running', metadata: 'nightly' })];
    const client = new FakeJobsClient({}, {}, { jobs: listed, truncated: true });
    const r = await runVerb(['jobs', 'list', '--remote', '--status', 'running', '--limit', '5'], { clients: [[JobsClient, client]], env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(client.calls).toEqual([{ method: 'listPage', args: [{ status: 'running', limit: 5, cursor: undefined, labels: undefined }] }]);
    expect(r.stdout.trimEnd().split('\t')).toEqual([NEW, 'running', listed[0]!.created_at, '', 'nightly']);
    expect(r.stderr).toContain('the server holds more jobs than these');
  });

  it('--remote on a server with no list (404) says so and shows the history instead', async () => {
    const client = new FakeJobsClient();
    client.listError = new ApiError('no such route', { status: 404, origin: 'jobs', code: 'not_found' });
    const r = await runVerb(['jobs', 'list', '--remote', '--json'], { clients: [[JobsClient, client]], env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('this server keeps no job list');
    expect(JSON.parse(r.stdout)).toHaveLength(3);
  });

  it('--remote --status gone is refused: gone is a status of the history only', async () => {
    const client = new FakeJobsClient();
    const r = await runVerb(['jobs', 'list', '--remote', '--status', 'gone'], { clients: [[JobsClient, client]], env: env() });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(client.calls).toEqual([]);
  });
});
