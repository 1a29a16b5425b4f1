// Runs the built bin/wes.js as a script would: a temp WES_CONFIG_DIR, no terminal, captured
// stdout/stderr/exit code. Build first (`npm test` does).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

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
  /** Called once the process has started (e.g. to send SIGINT later). */
  onSpawn?: (child: import('node:child_process').ChildProcess) => void;
}

/** A temp config folder, removed by the returned cleanup. */
export function tempConfigDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'wes-cfg-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const SCRUBBED_ENV = ['WES_PROFILE', 'WES_BASE_URL', 'WES_ROUTER_URL', 'WES_API_KEY', 'WES_ROUTER_TOKEN', 'WES_DEPLOYMENT', 'WES_PARTNER_KEY', 'NO_COLOR', 'CLICOLOR', 'CLICOLOR_FORCE', 'FORCE_COLOR'];

export function runWes(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const own = opts.configDir ? undefined : tempConfigDir();
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of SCRUBBED_ENV) delete env[k];
  Object.assign(env, { WES_CONFIG_DIR: opts.configDir ?? own!.dir }, opts.env);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [WES_BIN, ...args], { env: env as NodeJS.ProcessEnv, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
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
