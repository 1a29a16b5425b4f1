// Tables in a real terminal 40, 80 and 100 columns wide (issue 38, item 7): nothing the terminal
// has to wrap (a wrapped line breaks words and columns apart, `su c…`), `jobs list` says when it
// shows fewer jobs than there are, and the ids it shows still pick their job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runWes } from '../helpers/cli.js';
import { imageWorkflow, useDevServer } from '../helpers/dev-server.js';
import { ESCAPE_RESIDUE, hasTmux, inTmux, lines, wesShell } from '../helpers/tmux.js';

const BAD = resolve(import.meta.dirname, '../fixtures/readme/bad.json');

describe.skipIf(!hasTmux)('tables at 40, 80 and 100 columns (issue 38, item 7; skipped without tmux)', () => {
  const dev = useDevServer({ stepMs: 5 });
  let dir: string;
  let env: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wes-narrow-'));
    writeFileSync(join(dir, 'flow.json'), JSON.stringify(imageWorkflow({ steps: 2 })));
    copyFileSync(BAD, join(dir, 'bad.json'));
    env = wesShell(dir, dev.server);
    // Three jobs in the history the listings read (the config folder the terminal's wes uses).
    // Made here, not in the terminal: under --quiet a submit puts nothing on the screen (stdout
    // is its id), and each one spawned there cost a third of a second of CPU per width.
    for (let i = 0; i < 3; i++) {
      const res = await runWes(['jobs', 'submit', join(dir, 'flow.json'), '--wait', '--quiet'], { configDir: join(dir, 'config'), env: { WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey! } });
      expect(res.code, res.stderr).toBe(0);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([40, 80, 100])('at %i columns: jobs list, models schema and workflows validate fit, with no word cut by the terminal', async (width) => {
    const script = [
      env,
      'wes jobs list --limit 2; echo "LIST:$?"',
      'wes jobs get "$(wes jobs list --json --jq ".[0].id" | cut -c1-8)" >/dev/null; echo "GET:$?"',
      'wes models schema dev/upscale; echo "SCHEMA:$?"',
      'wes workflows validate bad.json; echo "VALIDATE:$?"',
    ].join('; ');
    const screen = await inTmux(script, /VALIDATE:\d+/, width, 60_000);
    const final = lines(screen.final);
    expect(final, screen.final).toEqual(expect.arrayContaining(['LIST:0', 'GET:0', 'SCHEMA:0']));
    expect(screen.final).not.toMatch(ESCAPE_RESIDUE);
    // -J joins the lines the terminal wrapped: any longer than the width was wrapped. Sentences
    // (error, hint, notes) are the terminal's to wrap; tables are wes's to fit.
    for (const l of final.filter((x) => !/^(error|hint):|^\s*\(/.test(x))) expect([...l].length, `${width} columns: ${l}`).toBeLessThanOrEqual(width);
    const rows = final.filter((l) => /^[0-9a-f]{8}/.test(l) && /succeeded/.test(l));
    expect(rows).toHaveLength(2);
    if (width < 72) expect(rows[0]).toMatch(/^[0-9a-f]{8}\s/);
    expect(screen.final).toMatch(/\(the newest 2 of (\d+); --limit \1 shows them all\)/);
  });
});
