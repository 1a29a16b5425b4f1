// Job id prefixes (issue 38, item 5): at least 4 characters pick a job, as git asks of
// abbreviated ids (`jobs cancel 9` cancelled job 957d…); a prefix never cancels without the whole
// id it picked being said first; an asset's 404 talks about the asset, not a job.
import { afterAll, describe, expect, it } from 'vitest';
import { imageWorkflow, useDevServer } from '../helpers/dev-server.js';
import { tempConfigDir, type RunResult } from '../helpers/cli.js';
import { nthLatest } from '../../src/features/jobs/history.js';
import { useTempDir, wesAgainst, writeTemp } from './jobs-env.js';

describe('job id prefixes and the asset 404 (issue 38, item 5)', () => {
  // Slow steps: the job is still running when the cancels come.
  const ctx = useDevServer({ stepMs: 200 });
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();
  const cfg = tempConfigDir();
  afterAll(() => cfg.cleanup());
  const run = (args: string[]): Promise<RunResult> => wes(args, { configDir: cfg.dir });

  it('one to three characters are refused (exit 2) and cancel nothing; four pick the job and the cancel names its whole id, --quiet or not', async () => {
    const id = (await run(['jobs', 'submit', writeTemp(dir(), imageWorkflow({ steps: 150 }))])).stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const cancels = () => [...ctx.server.state.requestCounts.entries()].filter(([k]) => k.startsWith('POST') && k.endsWith('/cancel')).reduce((n, [, c]) => n + c, 0);
    const before = cancels();

    for (const short of [id.slice(0, 1), id.slice(0, 3)]) {
      const res = await run(['jobs', 'cancel', short]);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(`${short} is too short to pick a job: the start of an id needs at least 4 characters`);
    }
    const get = await run(['jobs', 'get', id.slice(0, 2)]);
    expect(get.code).toBe(2);
    expect(cancels()).toBe(before);
    expect(JSON.parse((await run(['jobs', 'get', id, '--json'])).stdout).status).not.toBe('canceled');

    const cancel = await run(['jobs', 'cancel', id.slice(0, 4), '--quiet']);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stderr).toContain(`${id.slice(0, 4)} is job ${id} (from this machine's history)`);
    expect(cancels()).toBe(before + 1);
  });

  it('says @N in words for a number', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(nthLatest)).toEqual([
      'the latest job', 'the 2nd latest job', 'the 3rd latest job', 'the 4th latest job', 'the 11th latest job',
      'the 12th latest job', 'the 13th latest job', 'the 21st latest job', 'the 22nd latest job', 'the 101st latest job',
    ]);
  });

  it('an unknown asset id: the hint is about the asset, never a job', async () => {
    for (const verb of ['get', 'download']) {
      const res = await run(['assets', verb, 'a5e7-0000']);
      expect(res.code).toBe(5);
      expect(res.stderr).toContain('hint: check the asset id: an asset is named by its whole id');
      expect(res.stderr).not.toMatch(/\bjob\b/);
    }
  });
});
