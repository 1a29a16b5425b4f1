// A V8 code cache for the built CLI's chunks. Node 20 has no module.enableCompileCache, so every
// start parsed and compiled the same ~500 KB of JavaScript again: about a quarter of `jobs get`'s
// instructions. The first run of a build saves, as it exits, V8's code for each chunk it loaded
// (with the functions that ran); later runs give it back to V8 beside the source.
// - One folder per build: scripts/build-commonjs.mjs names the build by a hash of every chunk's
//   text, so a cache never meets another build's code; a cache file not newer than its chunk (one
//   edited in place after the build) is not used either (readNewerThan). V8 itself rejects a
//   cache made by another V8 version or with other flags; the chunk is then compiled from source
//   and its cache made again.
// - Every command's functions: a chunk's cache was made by the first command that loaded it, so a
//   function only another command runs was compiled from source at every run of that command
//   (`jobs get` after `--help` and `jobs list` had made the caches: 663 M instructions against
//   630 M). Each file names the commands whose runs its code holds (commandKey); the first run of
//   another command that loads the chunk saves it again as it exits, with what V8 then holds: the
//   cached functions and the ones this command compiled.
// - Best effort: a cache that cannot be read or written costs the compile, never the command.
// - Private: the folder is 0700 and each file 0600, written under a fresh name and renamed, like
//   every file wes keeps; a folder that is not this user's alone is neither read nor written.
//   Turned off with WES_CODE_CACHE=0.
import envPaths from 'env-paths';
import { chmodSync, closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { makeFoldersSync } from '../util/make-folders.js';
import type { Script } from 'node:vm';
import { loadBuiltModules } from './built-modules.js';
import { readIntoStartBuffer } from './start-reads.js';

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_RDONLY, O_WRONLY } = constants;

/**
 * The folder wes keeps its caches in: WES_CACHE_DIR when set (caches alone moved: a read-only or
 * per-run config folder keeps a warm cache), else inside WES_CONFIG_DIR when that is set (one
 * variable relocates everything wes keeps), else $XDG_CACHE_HOME/wes (~/.cache/wes), or the
 * per-user cache folder where XDG does not apply (as stateDir does).
 */
export function cacheRoot(env: NodeJS.ProcessEnv): string {
  if (env.WES_CACHE_DIR) return env.WES_CACHE_DIR;
  if (env.WES_CONFIG_DIR) return env.WES_CONFIG_DIR;
  if (process.platform === 'darwin' || process.platform === 'win32') return envPaths('wes', { suffix: '' }).cache;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'wes');
}

/** The code cache folder of one build, or undefined when the cache is off (WES_CODE_CACHE=0). */
export function codeCacheDir(env: NodeJS.ProcessEnv, buildId: string): string | undefined {
  if (env.WES_CODE_CACHE === '0') return undefined;
  return join(cacheRoot(env), 'code-cache', buildId);
}

/** The code cache folder of a build's single executable: its own, since its modules are compiled from its assets, not dist/. */
export function seaCodeCacheDir(env: NodeJS.ProcessEnv, buildId: string): string | undefined {
  return codeCacheDir(env, `${buildId}-sea`);
}

/** Compiles a module's wrapped source with its cached code (`name` in the folder), when it has one. */
export type CachedCompile = (wrapped: string, filename: string, name: string, source?: string) => Script;

/** Commands a file names at most: past them, a cache is saved again only when V8 rejects it. */
const COMMANDS_KEPT = 64;
/** What a cache file starts with: this tag, then the JSON list of the commands its code holds, then a newline, then V8's bytes. */
const HEADER_TAG = 'wes-code-cache 1 ';

/**
 * The command a run's functions are cached for: the first two words of the command line that are
 * not options (`jobs get`, `models run`; `` for `--version` and `--help`). A word that is not a
 * plain lower-case name (an id, a path, a URL) counts as `*`, so that the keys stay few.
 */
export function commandKey(argv: readonly string[]): string {
  return argv
    .filter((arg) => !arg.startsWith('-'))
    .slice(0, 2)
    .map((word) => (/^[a-z][a-z0-9-]{0,31}$/.test(word) ? word : '*'))
    .join(' ');
}

/**
 * A compiler that gives V8 the cached code of each script from `dir` and, at exit, saves the code
 * of those that had none (or had one V8 rejected); undefined when the folder is not this user's
 * alone. `source`, when given, is the file the script came from: a cache not newer than it is
 * not used. The npm build hooks it into the CommonJS loader (useCodeCache); the single
 * executable's loader (src/runtime/sea-loader.ts) calls it for every module it loads.
 */
export function cachedCompiler(dir: string, command = ''): CachedCompile | undefined {
  // Code read from the folder runs as wes: a folder another user could write to is never used.
  const state = folderState(dir);
  if (state === 'foreign') return undefined;
  const { Script } = process.getBuiltinModule('node:vm');
  const unsaved: Unsaved[] = [];
  process.once('exit', () => {
    if (unsaved.length > 0) save(unsaved, dir);
  });
  // Joined once: a path.join per module made V8 optimise Node's normalizeString at each start of a
  // command that loads ~40 modules (5.5 ms of TurboFan on a second core; bench/RESULTS.md).
  const folder = join(dir, sep);
  return (wrapped, filename, name, source) => {
    const file = `${folder}${name}.v8`;
    const cached = state === 'private' ? readNewerThan(file, source) : undefined;
    const script = new Script(wrapped, { filename, cachedData: cached?.code });
    if (cached === undefined || script.cachedDataRejected === true) unsaved.push({ script, file, commands: [command] });
    else if (!cached.commands.includes(command) && cached.commands.length < COMMANDS_KEPT) unsaved.push({ script, file, commands: [...cached.commands, command] });
    return script;
  };
}

/**
 * A file's header for `commands`, padded with spaces to a multiple of 8 bytes: V8 copies cached
 * code that does not start on a pointer boundary before it reads it.
 */
function header(commands: string[]): Buffer {
  const text = `${HEADER_TAG}${JSON.stringify(commands)}`;
  return Buffer.from(`${text.padEnd(Math.ceil((text.length + 1) / 8) * 8 - 1)}\n`, 'latin1');
}

/** A script whose code is saved at exit, and the commands the file will name. */
interface Unsaved {
  script: Script;
  file: string;
  commands: string[];
}

/** A cache file's contents: V8's bytes (a view of the start buffer, good until the next read: start-reads.ts) and the commands whose runs they hold. */
interface CacheFile {
  code: Buffer;
  commands: string[];
}

/** The file's header and V8's bytes after it; undefined for a file that has no header (made by an older wes) or a damaged one. */
function parseCacheFile(bytes: Buffer): CacheFile | undefined {
  if (bytes.toString('latin1', 0, HEADER_TAG.length) !== HEADER_TAG) return undefined;
  const end = bytes.indexOf(0x0a, HEADER_TAG.length);
  if (end < 0) return undefined;
  try {
    const commands: unknown = JSON.parse(bytes.toString('latin1', HEADER_TAG.length, end));
    if (!Array.isArray(commands) || !commands.every((c) => typeof c === 'string')) return undefined;
    return { code: bytes.subarray(end + 1), commands };
  } catch {
    return undefined;
  }
}

/**
 * From now on, every module under `root` is loaded as src/runtime/built-modules.ts says and
 * compiled with its cached code from `dir` when there is one; at exit, the code of those that had
 * none (or had one V8 rejected) is saved there.
 */
export function useCodeCache(root: string, dir: string, command = ''): void {
  const compileCached = cachedCompiler(dir, command);
  if (compileCached) loadBuiltModules(root, (wrapped, filename, name) => compileCached(wrapped, filename, name, filename));
}

/** 'private': a folder of this user that no one else may write to; 'absent'; 'foreign': anything else. */
export function folderState(dir: string): 'private' | 'absent' | 'foreign' {
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    return 'absent';
  }
  if (!st.isDirectory()) return 'foreign';
  if (process.getuid && st.uid !== process.getuid()) return 'foreign';
  if (process.platform !== 'win32' && (st.mode & 0o022) !== 0) return 'foreign';
  return 'private';
}

/**
 * The cache file, unless it is missing or not newer than the source (when there is a source file). V8 checks a cache against its
 * source only by length, and the build id is fixed when the build is made: a chunk edited in place
 * afterwards (patch-package, a hand fix) with its length kept would otherwise run its old code.
 */
function readNewerThan(file: string, source: string | undefined): CacheFile | undefined {
  try {
    const fd = openSync(file, O_RDONLY);
    try {
      const { size, mtimeMs } = fstatSync(fd);
      if (source !== undefined && mtimeMs <= statSync(source).mtimeMs) return undefined;
      const { bytes, end } = readIntoStartBuffer(fd, size);
      return parseCacheFile(bytes.subarray(0, end));
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

function save(scripts: Unsaved[], dir: string): void {
  try {
    const created = makeFoldersSync(dir, 0o700);
    chmodSync(dir, 0o700);
    if (created !== undefined) removeOldBuilds(dir);
    for (const { script, file, commands } of scripts) writePrivate(file, Buffer.concat([header(commands), script.createCachedData()]));
  } catch {
    // A read-only or full disk: the next run compiles from source, as it did before.
  }
}

/** Builds kept besides a new one: two wes installs used in turn (global and npx) keep theirs. */
const OTHER_BUILDS_KEPT = 2;

/** A new build's first save removes the caches of older builds but the most recent few. */
function removeOldBuilds(dir: string): void {
  const parent = dirname(dir);
  const others = readdirSync(parent)
    .map((name) => join(parent, name))
    .filter((path) => path !== dir)
    .map((path) => ({ path, mtimeMs: lstatSync(path).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { path } of others.slice(OTHER_BUILDS_KEPT)) rmSync(path, { recursive: true, force: true });
}

export function writePrivate(file: string, bytes: Uint8Array): void {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}
