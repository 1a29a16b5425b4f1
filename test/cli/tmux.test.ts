// wes in a real terminal (tmux, 80 columns), read back from the screen as a person sees it: the
// spinner animates while the job runs and ends in one clean line, no escape sequence is left
// on screen, and the tables fit 80 columns. Skipped where tmux is not installed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageWorkflow, useDevServer } from '../helpers/dev-server.js';
import { ESCAPE_RESIDUE, SPINNER, hasTmux, inTmux as inTmuxAt, lines, wesShell } from '../helpers/tmux.js';

const WIDTH = 80;
const inTmux = (script: string, done: RegExp) => inTmuxAt(script, done, WIDTH);

describe.skipIf(!hasTmux)('wes in a terminal (skipped where tmux is not installed)', () => {
  const dev = useDevServer({ stepMs: 40 });
  let dir: string;
  let env: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wes-tmux-'));
    writeFileSync(join(dir, 'flow.json'), JSON.stringify(imageWorkflow({ steps: 25 })));
    env = wesShell(dir, dev.server);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('jobs submit --wait --download: the spinner runs, then ends in one clean line', async () => {
    const screen = await inTmux(`${env}; wes jobs submit flow.json --wait --download out; echo "EXIT:$?"`, /EXIT:\d+/);
    const final = lines(screen.final);
    expect(final).toContain('EXIT:0');
    expect(screen.frames.some((f) => SPINNER.test(f)), 'a spinner frame was on screen while the job ran').toBe(true);
    expect(screen.final).not.toMatch(SPINNER);
    expect(screen.final).not.toMatch(ESCAPE_RESIDUE);
    expect(final.filter((l) => /succeeded in/.test(l))).toHaveLength(1);
    expect(final.some((l) => l.startsWith('+ wes_') && l.includes('(image'))).toBe(true);
    for (const l of final) expect([...l].length, l).toBeLessThanOrEqual(WIDTH);
  });

  it('tables of jobs get, models list and doctor fit 80 columns with nothing left over', async () => {
    const script = [
      env,
      'id=$(wes jobs submit flow.json --wait --quiet)',
      'wes jobs get "$id"; echo "GET:$?"',
      'wes models list --limit 8; echo "LIST:$?"',
      'wes doctor; echo "DOCTOR:$?"',
    ].join('; ');
    const screen = await inTmux(script, /DOCTOR:\d+/);
    const final = lines(screen.final);
    expect(final).toEqual(expect.arrayContaining(['GET:0', 'LIST:0', 'DOCTOR:0']));
    expect(screen.final).not.toMatch(ESCAPE_RESIDUE);
    expect(screen.final).not.toMatch(SPINNER);
    expect(final.some((l) => /^CHECK\s+FAMILY\s+STATUS\s+DETAIL$/.test(l))).toBe(true);
    for (const l of final) expect([...l].length, l).toBeLessThanOrEqual(WIDTH);
  });
});
