// wes in a real terminal (tmux), read back from the screen as a person sees it: a shell script
// run in a fresh session of a given width, its screen captured until a marker shows.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { sharedCacheDir, WES_BIN } from './cli.js';
import type { DevServerHandle } from '../../src/dev-server/index.js';

const version = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
export const hasTmux = version.status === 0;
/** attach-session -f (ignore-size, no-output) came with tmux 3.2; an older one gets a client process per command. */
const release = /(\d+)\.(\d+)/.exec(version.stdout ?? '');
const hasControlFlags = release !== null && (Number(release[1]) > 3 || (Number(release[1]) === 3 && Number(release[2]) >= 2));
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

/** A tmux command's standard output. */
type TmuxCommand = (...args: string[]) => Promise<string>;

/**
 * One client in control mode (`tmux -C`) that runs every command of a session, from capture to
 * key press: a client process per capture (every 40 ms while a command runs) cost about 20 ms of
 * CPU each, most of what a terminal test spent. `ignore-size` keeps the session at the width it
 * was made with; `no-output` spares the pane's output being copied to this client. Each command's
 * answer is the text between its `%begin` and `%end` lines, as the command printed it.
 */
function controlClient(tmuxArgs: string[]): { run: TmuxCommand; close: () => void } {
  const env = { ...process.env };
  delete env.TMUX; // attaching from inside a tmux is refused as nesting
  const child = spawn('tmux', [...tmuxArgs, '-C', 'attach-session', '-t', 'w', '-f', 'ignore-size,no-output'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const waiting: Array<{ resolve: (out: string) => void; reject: (err: Error) => void }> = [];
  let problem = '';
  const fail = (why: string) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`tmux control client: ${why}${problem ? `: ${problem}` : ''}`));
  };
  child.stderr.setEncoding('utf8').on('data', (text: string) => (problem += text));
  child.on('error', (err) => fail(err.message));
  child.on('close', (code) => fail(`ended (${code})`));
  let block: { id: string; lines: string[] } | undefined;
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (block) {
      const ended = line === `%end ${block.id}` ? 'end' : line === `%error ${block.id}` ? 'error' : undefined;
      if (!ended) return void block.lines.push(line);
      const { lines } = block;
      block = undefined;
      const w = waiting.shift();
      if (ended === 'end') w?.resolve(lines.map((l) => `${l}\n`).join(''));
      else w?.reject(new Error(`tmux: ${lines.join('\n')}`));
      return;
    }
    // Flags 0: the attach command's own answer, not one of ours (1).
    const begin = /^%begin (\d+ \d+ (\d+))$/.exec(line);
    if (begin && begin[2] !== '0') block = { id: begin[1]!, lines: [] };
  });
  const quote = (arg: string) => {
    if (/['\n]/.test(arg)) throw new Error(`tmux control client: cannot send ${JSON.stringify(arg)}`);
    return `'${arg}'`;
  };
  return {
    run: (...args) =>
      new Promise<string>((resolve, reject) => {
        if (child.exitCode !== null || child.stdin.destroyed) return reject(new Error(`tmux control client: ended${problem ? `: ${problem}` : ''}`));
        waiting.push({ resolve, reject });
        child.stdin.write(`${args.map(quote).join(' ')}\n`);
      }),
    close: () => {
      child.stdin.end();
      child.kill();
    },
  };
}

/** Runs a shell script in a fresh tmux session `width` columns wide until `done` shows on screen. */
export async function inTmux(script: string, done: RegExp, width: number, timeoutMs = 30_000, press?: KeyPress): Promise<Screen> {
  const socket = ['-L', `wes-test-${process.pid}-${sessions++}`, '-f', '/dev/null'];
  const tmux = (...args: string[]) => spawnSync('tmux', [...socket, ...args], { encoding: 'utf8' });
  const started = tmux('new-session', '-d', '-s', 'w', '-x', String(width), '-y', '50', 'bash', '--norc', '--noprofile', '-c', `${script}; sleep 60`);
  if (started.status !== 0) throw new Error(`tmux: ${started.stderr}`);
  const control = hasControlFlags ? controlClient(socket) : { run: async (...args: string[]) => tmux(...args).stdout, close: () => {} };
  const frames: string[] = [];
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const frame = await control.run('capture-pane', '-p', '-t', 'w');
      frames.push(frame);
      if (done.test(frame)) break;
      if (press && press.when.test(frame)) {
        await control.run('send-keys', '-t', 'w', press.keys);
        press = undefined;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${done} on screen:\n${frame}`);
      await new Promise((r) => setTimeout(r, 40));
    }
    const final = await control.run('capture-pane', '-p', '-J', '-S', '-', '-t', 'w');
    return { frames, final };
  } finally {
    control.close();
    tmux('kill-server');
  }
}

export function lines(screen: string): string[] {
  return screen.split('\n').map((l) => l.trimEnd()).filter(Boolean);
}

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}


/** The start of a script that runs `wes` in `dir` against `server`, in a person's terminal environment, with the tests' shared code cache. */
export function wesShell(dir: string, server: DevServerHandle): string {
  // CI=true would turn animation off: a person's terminal has no CI variable.
  return [
    'unset NODE_EXTRA_CA_CERTS CI NO_COLOR CLICOLOR CLICOLOR_FORCE WES_PROFILE WES_ROUTER_URL WES_ROUTER_TOKEN',
    `export WES_CONFIG_DIR=${shellQuote(join(dir, 'config'))} WES_CACHE_DIR=${shellQuote(sharedCacheDir())} WES_BASE_URL=${shellQuote(server.url)} WES_API_KEY=${shellQuote(server.apiKey!)}`,
    `cd ${shellQuote(dir)}`,
    `wes() { ${shellQuote(process.execPath)} ${shellQuote(WES_BIN)} "$@"; }`,
  ].join('; ');
}
