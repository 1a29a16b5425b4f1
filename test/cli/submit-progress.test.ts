// A large workflow is sent with its progress shown (issue 38, item 8: "a 44 MB workflow sends 5 s
// with no spinner"): from 8 MiB of body up, on a terminal, the line the uploads draw ("uploading
// big.json  3.0 MiB of 9.0 MiB · …"); nothing off a terminal, with CI, --quiet or --json, or for a
// smaller body. In tmux at 40, 80 and 100 columns, with the dev-server holding the submit back
// (a `delay` fault, so that the bytes are on their way long enough to be seen): the progress shows
// while the body goes, and no spinner frame or escape is left on the screen after.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWes, tempConfigDir, type TerminalStreams } from '../helpers/cli.js';
import { addFaults, useDevServer } from '../helpers/dev-server.js';
import { ESCAPE_RESIDUE, hasTmux, inTmux, lines, SPINNER, wesShell } from '../helpers/tmux.js';

const dev = useDevServer({ faults: true });
let dir: string;
let config: { dir: string; cleanup: () => void };

/** An API-format workflow of about `mib` MiB: the bulk in its SaveImage node's `_meta`, which the engine ignores. */
function workflowOf(name: string, mib: number): string {
  const path = join(dir, name);
  const [before, after] = JSON.stringify({
    '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0 } },
    '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'big' }, _meta: { title: 'Save', notes: 'NOTES' } },
  }).split('NOTES') as [string, string];
  // The notes written as bytes: a string of them, its JSON and its UTF-8 were three copies of 9 MiB.
  writeFileSync(path, before);
  appendFileSync(path, Buffer.alloc(Math.round(mib * (1 << 20)), 'x'));
  appendFileSync(path, after);
  return path;
}

function wes(argv: string[], tty: TerminalStreams, env: Record<string, string> = {}) {
  return runWes(argv, { terminal: tty, configDir: config.dir, env: { WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey!, ...env } });
}

const JOB_ID = /^[0-9a-f-]{36}\n$/;
const PROGRESS = /uploading big\.json {2}\d+(\.\d)? (MiB|KiB) of 9\.0 MiB/;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wes-submit-progress-'));
  config = tempConfigDir();
  workflowOf('big.json', 9);
  workflowOf('small.json', 7);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  config.cleanup();
});

describe('jobs submit of a large workflow body', () => {
  it('on a terminal, shows the bytes sent of the body; stdout is still the job id', async () => {
    const run = await wes(['jobs', 'submit', join(dir, 'big.json')], { stderrTTY: true });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(PROGRESS);
    expect(run.stdout).toMatch(JOB_ID);
  }, 120_000);

  it('nothing for a body under 8 MiB, off a terminal, with CI, --quiet or --json', async () => {
    for (const [file, args, tty, env] of [
      ['small.json', [], { stderrTTY: true }, {}],
      ['big.json', [], { stderrTTY: false }, {}],
      ['big.json', [], { stderrTTY: true }, { CI: 'true' }],
      ['big.json', ['--quiet'], { stderrTTY: true }, {}],
      ['big.json', ['--json'], { stderrTTY: true }, {}],
    ] as Array<[string, string[], TerminalStreams, Record<string, string>]>) {
      const run = await wes(['jobs', 'submit', join(dir, file), ...args], tty, env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr, `${file} ${args.join(' ')} ${JSON.stringify(tty)} ${JSON.stringify(env)}`).not.toContain('uploading');
    }
  }, 300_000);
});

describe.skipIf(!hasTmux)('jobs submit of a large workflow in a terminal (skipped without tmux)', () => {
  it.each([40, 80, 100])('at %i columns: the progress shows while the body goes, and nothing of it is left after', async (width) => {
    // The server reads the body only after 2 s: the connection takes what its buffers hold, then waits.
    await addFaults(dev.server, { match: 'POST /api/v2/jobs', action: 'delay', delay_ms: 2000, count: 1 });
    const script = [wesShell(dir, dev.server), 'wes jobs submit big.json; echo "SUBMIT:$?"'].join('; ');
    const screen = await inTmux(script, /SUBMIT:\d+/, width, 100_000);
    const shown = screen.frames.filter((f) => /uploading/.test(f));
    expect(shown.length, screen.frames.join('\n----\n')).toBeGreaterThan(0);
    // Its first words, or the bytes so far (how far the connection got before the server read is the kernel's affair).
    expect(shown.some((f) => SPINNER.test(f) && /uploading (1 file|big\.json +\d)/.test(f)), shown.join('\n----\n')).toBe(true);
    expect(screen.final, screen.final).not.toMatch(SPINNER);
    expect(screen.final).not.toMatch(ESCAPE_RESIDUE);
    expect(screen.final).not.toContain('uploading');
    const final = lines(screen.final);
    expect(final).toContain('SUBMIT:0');
    expect(final.some((l) => /^[0-9a-f]{8}-[0-9a-f-]{27}$/.test(l))).toBe(true);
  }, 120_000);
});
