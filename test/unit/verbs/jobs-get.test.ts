// `wes jobs get` on a fake job API client: the record on stdout (a key/value table on a terminal,
// key<TAB>value lines piped, the service's Job unchanged with --json), hints on stderr, a 404 as
// exit 4 with the hint for what the user meant, server text stripped of control characters.
import { describe, expect, it } from 'vitest';
import { JobsClient } from '../../../src/clients/jobs/client.js';
import { ExitCode } from '../../../src/errors.js';
import { runVerb } from '../../helpers/fake-factory.js';
import { FakeJobsClient, job } from '../../helpers/fakes/jobs.js';

const ID = '7d7c0b7e-2f1e-4a43-9a4c-2d1f0f5f8e11';
const done = job({
  id: ID,
  status: 'succeeded',
  started_at: '2026-03-01T11:58:01Z',
  completed_at: '2026-03-01T11:58:05Z',
  outputs: [{ node_id: '9', name: 'cat.png', type: 'image', content_type: 'image/png', size_bytes: 2048, id: 'a1', hash: null, url: '/c/a1', url_expires_at: '2026-03-01T13:00:00Z' }],
});

function jobs(...snapshots: ReturnType<typeof job>[]) {
  return new FakeJobsClient({ [ID]: snapshots });
}

describe('jobs get (fake client)', () => {
  it('reads the job once by its id and prints key<TAB>value lines when piped', async () => {
    const client = jobs(done);
    const r = await runVerb(['jobs', 'get', ID], { clients: [[JobsClient, client]] });
    expect(r.code, r.stderr).toBe(0);
    expect(client.calls).toEqual([{ method: 'get', args: [ID] }]);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toContain(`id\t${ID}`);
    expect(lines).toContain('status\tsucceeded');
    expect(lines.some((l) => l.startsWith('output\tcat.png\timage\t'))).toBe(true);
    expect(r.stdout).not.toMatch(/\x1b\[/);
  });

  it('--json prints the Job as the service sent it, and nothing else on stdout', async () => {
    const r = await runVerb(['jobs', 'get', ID, '--json'], { clients: [[JobsClient, jobs(done)]] });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(done);
  });

  it('on a terminal the record is a table with the status in words', async () => {
    const r = await runVerb(['jobs', 'get', ID], { clients: [[JobsClient, jobs(done)]], terminal: { stdoutTTY: true, stderrTTY: true, columns: 100 } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(ID);
    expect(r.stdout).toContain('succeeded');
    expect(r.stdout).not.toContain(`status\t`);
  });

  it('a job the service does not know is exit 4 (not found), said on stderr with nothing on stdout', async () => {
    const client = new FakeJobsClient();
    const r = await runVerb(['jobs', 'get', ID], { clients: [[JobsClient, client]] });
    expect(r.code).toBe(ExitCode.NOT_FOUND);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`job ${ID} not found`);
  });

  it('"last" for an id: the 404 hint says to write @last', async () => {
    const r = await runVerb(['jobs', 'get', 'last'], { clients: [[JobsClient, new FakeJobsClient()]] });
    expect(r.code).toBe(ExitCode.NOT_FOUND);
    expect(r.stderr).toContain('write @last');
  });

  it('--json with a 404: the error is one JSON document on stderr, stdout stays empty', async () => {
    const r = await runVerb(['jobs', 'get', ID, '--json'], { clients: [[JobsClient, new FakeJobsClient()]] });
    expect(r.code).toBe(ExitCode.NOT_FOUND);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'not_found' });
  });

  it('control characters in server text (an error message, an output name) are stripped before printing', async () => {
    const hostile = job({
      id: ID,
      status: 'failed',
      error: { type: 'execution_error', message: 'boom\x1b]0;pwned\x07\x1b[2J done' } as never,
      outputs: [{ ...done.outputs[0]!, name: 'evil\x1b[31m.png' }],
    });
    const r = await runVerb(['jobs', 'get', ID], { clients: [[JobsClient, jobs(hostile)]] });
    expect(r.stdout + r.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(r.stdout).toContain('boom');
  });

  it('a missing id is a usage error (exit 2) before any client is asked for', async () => {
    const r = await runVerb(['jobs', 'get'], { clients: [[JobsClient, new FakeJobsClient()]] });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain("missing required argument 'id'");
    expect(r.factory).toBeUndefined();
  });
});
