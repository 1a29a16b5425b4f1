// How the harness calls `wes`: the built bin/wes.js under the same node, a private config folder,
// and a check of whether a command exists yet (other people are still building some).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WES_BIN = fileURLToPath(new URL('../../bin/wes.js', import.meta.url));
export const NODE = process.execPath;

let profileDir = null;

/** --cpu-prof DIR: every wes run from now on writes a V8 CPU profile into DIR. */
export function profileWesInto(dir) {
  profileDir = dir;
}

export function wesArgs(...args) {
  return [...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []), WES_BIN, ...args];
}

const made = [];

/** A fresh folder under the system temp dir, removed by removeTempDirs() at the end of the run. */
export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), `wes-bench-${prefix}-`));
  made.push(dir);
  return dir;
}

export function removeTempDirs() {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

const helpCache = new Map();

/** `wes <words> --help` output, or null when the command does not exist. */
export function commandHelp(words) {
  const key = words.join(' ');
  if (!helpCache.has(key)) {
    const env = { ...process.env, WES_CONFIG_DIR: tempDir('help'), NO_COLOR: '1' };
    const run = spawnSync(NODE, wesArgs(...words, '--help'), { encoding: 'utf8', env, timeout: 20_000 });
    const usage = new RegExp(`Usage: wes ${words.map((w) => w.replace(/[-]/g, '\\-')).join(' ')}\\b`);
    helpCache.set(key, run.status === 0 && usage.test(run.stdout) ? run.stdout : null);
  }
  return helpCache.get(key);
}

/** null when `wes <words>` exists (and has every flag), else the reason it is not available. */
export function missingCommand(words, flags = []) {
  const help = commandHelp(words);
  if (help === null) return `not available (command missing: wes ${words.join(' ')})`;
  const absent = flags.filter((flag) => !help.includes(flag));
  return absent.length ? `not available (wes ${words.join(' ')} has no ${absent.join(', ')})` : null;
}

/** Runs `wes args` against a bench server (env from server.wesEnv), measured. */
export async function runWes(server, configDir, args, opts = {}) {
  const { measure } = await import('./measure.mjs');
  return measure(NODE, wesArgs(...args), { ...opts, env: { ...server.wesEnv(configDir), ...(opts.env ?? {}) } });
}
