// wes in a real terminal (tmux, 80 columns), read back from the screen as a person sees it: the
// spinner animates while the job runs and ends in one clean line, no escape sequence is left
// on screen, and the tables fit 80 columns. Skipped where tmux is not installed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WES_BIN } from '../helpers/cli.js';
import { imageWorkflow, useDevServer } from '../helpers/dev-server.js';

const hasTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
const WIDTH = 80;
const SPINNER = /[\u2800-\u28ff]/;
const ESCAPE_RESIDUE = /\u001b|\u009b|\[\??\d+(;\d+)*[A-HJKSTfhlm]|\[[0-9;]*m/;

let sessions = 0;

interface Screen {
  /** Every capture taken while the command ran. */
  frames: string[];
  /** The whole screen and scrollback at the end, wrapped lines joined. */
  final: string;
}

/** Runs a shell script in a fresh 80-column tmux session until `done` shows on screen. */
async function inTmux(script: string, done: RegExp, timeoutMs = 30_000): Promise<Screen> {
  const socket = `wes-test-${process.pid}-${sessions++}`;
  const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const started = tmux('new-session', '-d', '-s', 'w', '-x', String(WIDTH), '-y', '50', 'bash', '--norc', '--noprofile', '-c', `${script}; sleep 60`);
  if (started.status !== 0) throw new Error(`tmux: ${started.stderr}`);
  const frames: string[] = [];
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const frame = tmux('capture-pane', '-p', '-t', 'w').stdout;
      frames.push(frame);
      if (done.test(frame)) break;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${done} on screen:\n${frame}`);
      await new Promise((r) => setTimeout(r, 40));
    }
    const final = tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'w').stdout;
    return { frames, final };
  } finally {
    tmux('kill-server');
  }
}

function lines(screen: string): string[] {
  return screen.split('\n').map((l) => l.trimEnd()).filter(Boolean);
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

describe.skipIf(!hasTmux)('wes in a terminal (skipped where tmux is not installed)', () => {
  const dev = useDevServer({ stepMs: 40 });
  let dir: string;
  let env: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wes-tmux-'));
    writeFileSync(join(dir, 'flow.json'), JSON.stringify(imageWorkflow({ steps: 25 })));
    // CI=true would turn animation off: a person's terminal has no CI variable.
    env = [
      'unset CI NO_COLOR CLICOLOR CLICOLOR_FORCE WES_PROFILE WES_ROUTER_URL WES_ROUTER_TOKEN',
      `export WES_CONFIG_DIR=${shellQuote(join(dir, 'config'))} WES_BASE_URL=${shellQuote(dev.server.url)} WES_API_KEY=${shellQuote(dev.server.apiKey!)}`,
      `cd ${shellQuote(dir)}`,
      `wes() { ${shellQuote(process.execPath)} ${shellQuote(WES_BIN)} "$@"; }`,
    ].join('; ');
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
