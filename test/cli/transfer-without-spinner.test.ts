// A download or upload run off a terminal (a script, CI, the bench) shows its progress as plain
// lines and never loads the spinner (ora and its dependencies, ~30 ms of CPU and 7 MB): the built
// CLI, with a loader hook listing every module it loads.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bytesWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst } from './jobs-env.js';

const PRELOAD = join(import.meta.dirname, '../fixtures/start-up/list-loaded-modules.cjs');

/** The built chunks a run loaded that bundle ora. */
function spinnerChunks(list: string): string[] {
  const urls = readFileSync(list, 'utf8').split('\n').filter((u) => u.startsWith('file:') && u.includes('/dist/'));
  expect(urls.length).toBeGreaterThan(5); // the list is real
  return urls.filter((u) => readFileSync(fileURLToPath(u), 'utf8').includes('node_modules/ora/'));
}

describe('transfers off a terminal', () => {
  const ctx = useDevServer({});
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('`jobs download` of a file large enough for a progress line, then `assets upload` of it, load no spinner', async () => {
    const id = (await submitJob(ctx.server, bytesWorkflow(9 << 20))).body.id as string;
    await waitForJob(ctx.server, `/api/v2/jobs/${id}`, ['succeeded']);
    const list = join(dir(), 'modules.txt');
    const env = { NODE_OPTIONS: `--require ${PRELOAD}`, WES_TEST_MODULES_FILE: list };
    writeFileSync(list, '');
    const down = await wes(['jobs', 'download', id, join(dir(), 'out')], { env });
    expect(down.code, down.stderr).toBe(0);
    expect(down.stderr).toContain('downloading');
    expect(spinnerChunks(list)).toEqual([]);
    writeFileSync(list, '');
    const file = down.stdout.trim().split('\n')[0]!;
    const up = await wes(['assets', 'upload', file, '--json'], { env });
    expect(up.code, up.stderr).toBe(0);
    expect(spinnerChunks(list)).toEqual([]);
    rmSync(list);
  });
});
