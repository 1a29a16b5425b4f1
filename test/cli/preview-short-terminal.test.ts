// `jobs watch --preview` on a short terminal: the picture under the spinner is no taller than the
// rows the terminal has left below it, so the spinner is never scrolled away; on a tall one the
// picture keeps its usual size.
import { describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { imageWorkflow, submitJob, useDevServer } from '../helpers/dev-server.js';

const dev = useDevServer({ stepMs: 10 });
const KITTY_ROWS = /\x1b_Ga=T,f=32,s=\d+,v=\d+,c=\d+,r=(\d+),i=1000771/g;

async function previewRows(terminalRows: number): Promise<number[]> {
  const id = (await submitJob(dev.server, imageWorkflow({ steps: 60, width: 16, height: 64 }))).body.id as string;
  const run = await runWes(['jobs', 'watch', id, '--preview', '--interval', '0.05'], {
    terminal: { stdoutTTY: true, stderrTTY: true, rows: terminalRows },
    env: { WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey!, WES_PICTURES: 'kitty' },
  });
  expect(run.code, run.stderr).toBe(0);
  return [...run.stderr.matchAll(KITTY_ROWS)].map((m) => Number(m[1]));
}

describe('jobs watch --preview and the terminal height', () => {
  // The dev-server's previews are at most 32 px tall: 2 rows of the 20 px cell wes assumes when the
  // terminal does not say. A short terminal gets fewer, and one with no row to spare none at all.
  it('on 50 rows, the picture\'s own 2', async () => {
    const rows = await previewRows(50);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(Math.max(...rows)).toBe(2);
  });

  it('on 3 rows, 1 (3 less the spinner line and the spare row)', async () => {
    const rows = await previewRows(3);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(Math.max(...rows)).toBe(1);
  });

  it('on 2 rows, none: the job is still followed to its end', async () => {
    expect(await previewRows(2)).toEqual([]);
  });
});
