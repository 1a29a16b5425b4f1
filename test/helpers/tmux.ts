// wes in a real terminal (tmux), read back from the screen as a person sees it: a shell script
// run in a fresh session of a given width, its screen captured until a marker shows.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { WES_BIN } from './cli.js';
import type { DevServerHandle } from '../../src/dev-server/index.js';

export const hasTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
export const SPINNER = /[\u2800-\u28ff]/;
export const ESCAPE_RESIDUE = /\u001b|\u009b|\[\??\d+(;\d+)*[A-HJKSTfhlm]|\[[0-9;]*m/;

let sessions = 0;

export interface Screen {
  /** Every capture taken while the command ran. */
  frames: string[];
  /** The whole screen and scrollback at the end, wrapped lines joined. */
  final: string;
}

/** Keys typed once `when` shows on screen (tmux send-keys names: `C-c` is Ctrl-C, as a person presses it). */
export interface KeyPress {
  when: RegExp;
  keys: string;
}

/** Runs a shell script in a fresh tmux session `width` columns wide until `done` shows on screen. */
export async function inTmux(script: string, done: RegExp, width: number, timeoutMs = 30_000, press?: KeyPress): Promise<Screen> {
  const socket = `wes-test-${process.pid}-${sessions++}`;
  const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const started = tmux('new-session', '-d', '-s', 'w', '-x', String(width), '-y', '50', 'bash', '--norc', '--noprofile', '-c', `${script}; sleep 60`);
  if (started.status !== 0) throw new Error(`tmux: ${started.stderr}`);
  const frames: string[] = [];
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const frame = tmux('capture-pane', '-p', '-t', 'w').stdout;
      frames.push(frame);
      if (done.test(frame)) break;
      if (press && press.when.test(frame)) {
        tmux('send-keys', '-t', 'w', press.keys);
        press = undefined;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${done} on screen:\n${frame}`);
      await new Promise((r) => setTimeout(r, 40));
    }
    const final = tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'w').stdout;
    return { frames, final };
  } finally {
    tmux('kill-server');
  }
}

export function lines(screen: string): string[] {
  return screen.split('\n').map((l) => l.trimEnd()).filter(Boolean);
}

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}


/** The start of a script that runs `wes` in `dir` against `server`, in a person's terminal environment. */
export function wesShell(dir: string, server: DevServerHandle): string {
  // CI=true would turn animation off: a person's terminal has no CI variable.
  return [
    'unset NODE_EXTRA_CA_CERTS CI NO_COLOR CLICOLOR CLICOLOR_FORCE WES_PROFILE WES_ROUTER_URL WES_ROUTER_TOKEN',
    `export WES_CONFIG_DIR=${shellQuote(join(dir, 'config'))} WES_BASE_URL=${shellQuote(server.url)} WES_API_KEY=${shellQuote(server.apiKey!)}`,
    `cd ${shellQuote(dir)}`,
    `wes() { ${shellQuote(process.execPath)} ${shellQuote(WES_BIN)} "$@"; }`,
  ].join('; ');
}
