// `wes assets get` and `wes assets delete` on a fake job API client: the record's fields
// (piped, --json unchanged), every id tried with the first failure's exit code, refusals said per
// id, and server text stripped of control characters.
import { describe, expect, it } from 'vitest';
import { JobsClient } from '../../../src/clients/jobs/client.js';
import { ApiError, ExitCode } from '../../../src/errors.js';
import { runVerb } from '../../helpers/fake-factory.js';
import { FakeJobsClient, asset } from '../../helpers/fakes/jobs.js';

const A = asset({ id: 'as-1', file_path: 'inputs/cat.png', size_bytes: 2048, job_id: null, expires_at: null });
const B = asset({ id: 'as-2', hash: null });

describe('assets get (fake client)', () => {
  it('piped: one key<TAB>value line per field, sizes in words and bytes, a lazy hash said', async () => {
    const client = new FakeJobsClient({}, { 'as-2': B, 'as-1': A });
    const r = await runVerb(['assets', 'get', 'as-1'], { clients: [[JobsClient, client]] });
    expect(r.code, r.stderr).toBe(0);
    expect(client.calls).toEqual([{ method: 'getAsset', args: ['as-1'] }]);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toContain('id\tas-1');
    expect(lines).toContain('file path\tinputs/cat.png');
    expect(lines).toContain('size\t2.0 KiB (2048 bytes)');
    expect(lines).toContain('expires\tnever');
    const lazy = await runVerb(['assets', 'get', 'as-2'], { clients: [[JobsClient, client]] });
    expect(lazy.stdout).toContain('hash\tnot computed yet');
  });

  it('--json: the record as the service sent it', async () => {
    const r = await runVerb(['assets', 'get', 'as-1', '--json'], { clients: [[JobsClient, new FakeJobsClient({}, { 'as-1': A })]] });
    expect(JSON.parse(r.stdout)).toEqual(A);
  });

  it('an unknown asset: exit 4, nothing on stdout', async () => {
    const r = await runVerb(['assets', 'get', 'nope'], { clients: [[JobsClient, new FakeJobsClient()]] });
    expect(r.code).toBe(ExitCode.NOT_FOUND);
    expect(r.stdout).toBe('');
  });

  it('a file path with control characters is printed without them', async () => {
    const hostile = asset({ id: 'as-3', file_path: 'in\x1b[2Jputs/\x07x.png' });
    const r = await runVerb(['assets', 'get', 'as-3'], { clients: [[JobsClient, new FakeJobsClient({}, { 'as-3': hostile })]] });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  });
});

describe('assets delete (fake client)', () => {
  it('deletes every id in order, says each on stderr, exit 0', async () => {
    const client = new FakeJobsClient({}, { 'as-1': A, 'as-2': B });
    const r = await runVerb(['assets', 'delete', 'as-1', 'as-2'], { clients: [[JobsClient, client]] });
    expect(r.code, r.stderr).toBe(0);
    expect(client.calls).toEqual([
      { method: 'deleteAsset', args: ['as-1'] },
      { method: 'deleteAsset', args: ['as-2'] },
    ]);
    expect(r.stderr).toContain('✓ deleted asset as-1');
    expect(r.stderr).toContain('✓ deleted asset as-2');
    expect(r.stdout).toBe('');
  });

  it('an unknown id does not stop the others; the exit code is the first failure\'s (4)', async () => {
    const client = new FakeJobsClient({}, { 'as-2': B });
    const r = await runVerb(['assets', 'delete', 'gone', 'as-2', '--json'], { clients: [[JobsClient, client]] });
    expect(r.code).toBe(ExitCode.NOT_FOUND);
    expect(client.names()).toEqual(['deleteAsset', 'deleteAsset']);
    expect(JSON.parse(r.stdout)).toEqual([
      { id: 'gone', deleted: false, error: { code: 'not_found', message: 'asset gone: no such asset, or not yours (deleted already?)' } },
      { id: 'as-2', deleted: true },
    ]);
  });

  it('an asset in use (409) is refused with exit 6 after the next ones were tried', async () => {
    const client = new FakeJobsClient({}, { 'as-1': A, 'as-2': B });
    client.deleteErrors.set('as-1', new ApiError('in use', { status: 409, origin: 'jobs', code: 'asset_in_use' }));
    const r = await runVerb(['assets', 'delete', 'as-1', 'as-2'], { clients: [[JobsClient, client]] });
    expect(r.code).toBe(ExitCode.REFUSED);
    expect(r.stderr).toContain('asset as-1 is in use');
    expect(r.stderr).toContain('✓ deleted asset as-2');
  });

  it('another failure (a 500) stops at once with its own exit code', async () => {
    const client = new FakeJobsClient({}, { 'as-1': A, 'as-2': B });
    client.deleteErrors.set('as-1', new ApiError('server broke', { status: 500, origin: 'jobs', code: 'internal_error' }));
    const r = await runVerb(['assets', 'delete', 'as-1', 'as-2'], { clients: [[JobsClient, client]] });
    expect(r.code).toBe(ExitCode.ERROR);
    expect(client.names()).toEqual(['deleteAsset']);
  });

  it('no id is a usage error (exit 2)', async () => {
    const r = await runVerb(['assets', 'delete'], { clients: [[JobsClient, new FakeJobsClient()]] });
    expect(r.code).toBe(ExitCode.USAGE);
  });
});
