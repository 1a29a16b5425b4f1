// Runs wes as a script would: a temp WES_CONFIG_DIR, no terminal (unless `terminal` says which
// streams are one), captured stdout/stderr/exit code. By default the whole CLI runs in this process (runProgram on buffers, env passed in, no
// process globals touched): fast, and counted by coverage. What needs a real process spawns the
// built bin/wes.js (build first; `npm test` does): signals (`onSpawn`), a working directory
// (`cwd`), or `spawn: true` for exit codes, pipes and packaging as the binary has them.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runProgram as runProgramOn } from '../../src/program.js';
import { testIO, type TestIO, type TestIOOptions } from './test-io.js';

export const WES_BIN = resolve(import.meta.dirname, '../../bin/wes.js');

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  stdoutBytes: Buffer;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
  cwd?: string;
  configDir?: string;
  timeoutMs?: number;
  /** Called once the process has started (e.g. to send SIGINT later); implies `spawn`. */
  onSpawn?: (child: import('node:child_process').ChildProcess) => void;
  /** Run the built binary in a child process instead of in this one. */
  spawn?: boolean;
  /** spawnWes: the program to start instead of `node bin/wes.js` (the single executable: `[path]`). */
  program?: string[];
  /** Run in-process on streams that are a terminal (which ones, how wide), in a terminal's environment (terminalEnv). */
  terminal?: TerminalStreams;
}

/** Which streams of an in-process run are a terminal, and its size. */
export type TerminalStreams = Pick<TestIOOptions, 'stdoutTTY' | 'stderrTTY' | 'stdinTTY' | 'columns' | 'rows'>;

/** A temp config folder, removed by the returned cleanup. */
export function tempConfigDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'wes-cfg-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * What the machine running the tests sets only for its own sake. NODE_EXTRA_CA_CERTS: a
 * development machine behind a TLS-inspecting proxy names its whole bundle (here 144
 * certificates), which Node parses as every process starts (about 40 ms of CPU each, most of a
 * `node -e 0`); the tests reach only servers on 127.0.0.1, and one that needs an authority names its own.
 */
const HOST_ONLY_ENV = ['NODE_EXTRA_CA_CERTS'];

/**
 * One code cache for every wes the tests start (WES_CACHE_DIR), as a user's machine keeps one: each
 * test's fresh WES_CONFIG_DIR would otherwise start cold and compile everything again (about 32 ms
 * of CPU per start, `jobs list`: 235 against 203 ms). The tests of the cache itself, and of what the
 * single executable extracts, set WES_CACHE_DIR to '' and keep theirs in their config folder.
 */
let sharedCache: string | undefined;
export function sharedCacheDir(): string {
  if (sharedCache === undefined) {
    sharedCache = join(tmpdir(), `wes-test-cache-${process.getuid?.() ?? 'user'}`);
    mkdirSync(sharedCache, { recursive: true, mode: 0o700 });
  }
  return sharedCache;
}

/** This process's environment for a child process that runs wes (a shell, an MCP client), without HOST_ONLY_ENV, with the shared code cache. */
export function childProcessEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, WES_CACHE_DIR: sharedCacheDir() };
  for (const k of HOST_ONLY_ENV) delete env[k];
  return env;
}

const SCRUBBED_ENV = [...HOST_ONLY_ENV, 'WES_PROFILE', 'WES_BASE_URL', 'WES_ROUTER_URL', 'WES_ENGINE_URL', 'WES_API_KEY', 'WES_ROUTER_TOKEN', 'WES_ENGINE_KEY', 'COMFY_API_KEY', 'COMFY_BASE_URL', 'WES_DEPLOYMENT', 'WES_PARTNER_KEY', 'WES_PARTNER_TOKEN', 'WES_ENGINE', 'WES_ROUTER_API', 'NO_COLOR', 'CLICOLOR', 'CLICOLOR_FORCE', 'FORCE_COLOR'];

/**
 * What a terminal run must not take from the environment the tests run in: CI runners set CI (no
 * spinner) and often no TERM, and the terminal the tests were started from names itself (TERM,
 * TERM_PROGRAM, ...), which decides picture support. Colour variables are scrubbed for every run.
 */
const OUTER_TERMINAL_ENV = ['CI', 'TERM', 'COLORTERM', 'TERM_PROGRAM', 'LC_TERMINAL', 'KITTY_WINDOW_ID', 'WEZTERM_PANE', 'WEZTERM_EXECUTABLE', 'TMUX', 'STY', 'MLTERM', 'WES_PICTURES'];

/** This process's environment without what would change a run's outcome; on a terminal, an ordinary colour one's. */
function baseEnv(terminal: boolean): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of terminal ? [...SCRUBBED_ENV, ...OUTER_TERMINAL_ENV] : SCRUBBED_ENV) delete env[k];
  return terminal ? { ...env, TERM: 'xterm-256color' } : env;
}

function scriptEnv(configDir: string, extra: RunOptions['env'], terminal = false): NodeJS.ProcessEnv {
  return { ...baseEnv(terminal), WES_CONFIG_DIR: configDir, WES_CACHE_DIR: sharedCacheDir(), ...extra } as NodeJS.ProcessEnv;
}

/**
 * An environment as an ordinary colour terminal has it, whatever the tests run in
 * (TERM=xterm-256color, no CI, no colour or picture overrides, no other terminal's name), with
 * `extra` on top: a test may give NO_COLOR or another TERM on purpose.
 */
export function terminalEnv(extra: RunOptions['env'] = {}): NodeJS.ProcessEnv {
  return { ...baseEnv(true), ...extra } as NodeJS.ProcessEnv;
}

export interface ProgramRun {
  io: TestIO;
  env: NodeJS.ProcessEnv;
  /** Aborting it is Ctrl-C. */
  interrupt?: AbortSignal;
  /** `io` is (partly) a terminal: the environment is a terminal's (terminalEnv) with `env` on top. */
  terminal?: boolean;
}

/** The whole CLI in this process, on `io`, with `env` as its environment; resolves to the exit code. */
export function runProgram(argv: string[], { io, env, interrupt, terminal }: ProgramRun): Promise<number> {
  return runProgramOn({ ...io, argv, env: terminal ? terminalEnv(env) : env, interrupt });
}

/**
 * Variables read from the process's own environment rather than the command's: by Node as it
 * starts (NODE_EXTRA_CA_CERTS, NODE_OPTIONS, ...), so an in-process run would silently ignore them.
 */
const readFromProcess = (env: RunOptions['env']) => Object.keys(env ?? {}).some((name) => name.startsWith('NODE_'));

/** Whether runWes runs the built binary in a child process for these options. */
export function needsProcess(opts: RunOptions): boolean {
  return opts.spawn === true || opts.onSpawn !== undefined || opts.cwd !== undefined || readFromProcess(opts.env);
}

export function runWes(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  if (needsProcess(opts)) {
    if (opts.terminal) throw new Error('runWes: a terminal run is in-process (buffers that say they are a TTY); drop spawn, onSpawn, cwd or NODE_* env');
    return spawnWes(args, opts);
  }
  return runWesInProcess(args, opts);
}

async function runWesInProcess(args: string[], opts: RunOptions): Promise<RunResult> {
  const own = opts.configDir ? undefined : tempConfigDir();
  const io = testIO({ ...opts.terminal, stdin: opts.input });
  const interrupt = new AbortController();
  const timer = setTimeout(() => interrupt.abort(), opts.timeoutMs ?? 60_000);
  try {
    const code = await runProgram(args, { io, env: scriptEnv(opts.configDir ?? own!.dir, opts.env, opts.terminal !== undefined), interrupt: interrupt.signal });
    const stdoutBytes = io.stdout.bytes();
    return { code, signal: null, stdout: stdoutBytes.toString('utf8'), stderr: io.stderr.text(), stdoutBytes };
  } finally {
    clearTimeout(timer);
    own?.cleanup();
  }
}

/** The built binary in a child process, as a script runs it. */
export function spawnWes(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const own = opts.configDir ? undefined : tempConfigDir();
  const env = scriptEnv(opts.configDir ?? own!.dir, opts.env);
  return new Promise((resolvePromise, reject) => {
    const [program, ...before] = opts.program ?? [process.execPath, WES_BIN];
    const child = spawn(program!, [...before, ...args], { env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      own?.cleanup();
      const stdoutBytes = Buffer.concat(out);
      resolvePromise({ code, signal, stdout: stdoutBytes.toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), stdoutBytes });
    });
    opts.onSpawn?.(child);
    if (opts.input !== undefined) child.stdin.end(opts.input);
    else child.stdin.end();
  });
}
