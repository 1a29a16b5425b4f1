// The one way wes creates files in a folder someone else may write to (a shared CI workspace,
// /tmp): a fresh, unpredictable temp name in the same folder opened with O_CREAT|O_EXCL|O_NOFOLLOW,
// so a link planted in advance is never written through (wget's CVE-2014-4877); then moved to
// its final name by an operation that replaces a link instead of following it (rename), or that
// refuses any existing name at all, links included (link + unlink: no-clobber without a race).
import { randomHex } from '../util/random-hex.js';
import { makeFoldersSync } from '../util/make-folders.js';
import { constants, type Stats } from 'node:fs';
import { link, lstat, open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ExitCode, WesError } from '../errors.js';

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_WRONLY, O_APPEND } = constants;
/** Flags of a file created here: new, never through a link, appended to. */
export const CREATE_FLAGS = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND;

export interface FreshFile {
  path: string;
  handle: FileHandle;
}

/** `.NAME.` of a temp file for `name`: `.NAME.<random>.tmp`, hidden, never a name wes keeps. */
function tempPrefix(name: string): string {
  return `.${name.slice(0, 120)}.`;
}

/** Random bytes in a temp name (as hex), so it cannot be predicted; and the name's end they make. */
const TEMP_RANDOM_BYTES = 8;
const TEMP_END = new RegExp(`^[0-9a-f]{${TEMP_RANDOM_BYTES * 2}}\\.tmp$`);

/** `.NAME.<random>.tmp` in the same folder: hidden, unpredictable, never a name wes keeps. */
function tempName(dir: string, name: string): string {
  return join(dir, `${tempPrefix(name)}${randomHex(TEMP_RANDOM_BYTES)}.tmp`);
}

/**
 * Removes what a writer of `name` in `dir` killed before its rename left: `.NAME.<random>.tmp`
 * files of this user, plain, last written before `before` (a writer at work now is left alone).
 * Best effort: what cannot be read or removed stays.
 */
export async function removeStaleTemps(dir: string, name: string, before: number): Promise<void> {
  const prefix = tempPrefix(name);
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.startsWith(prefix) || !TEMP_END.test(entry.slice(prefix.length))) continue;
    const path = join(dir, entry);
    const stats = await lstatOrNone(path).catch(() => undefined);
    if (stats && notOwnPlainFile(stats) === undefined && stats.mtimeMs < before) await unlink(path).catch(() => undefined);
  }
}

/** A new empty file under a fresh unpredictable name next to `finalPath`, created exclusively. */
export async function createFresh(finalPath: string, mode = 0o666): Promise<FreshFile> {
  for (let tries = 0; ; tries++) {
    const path = tempName(dirname(finalPath), basename(finalPath));
    try {
      return { path, handle: await open(path, CREATE_FLAGS, mode) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || tries >= 5) throw err;
    }
  }
}

/** lstat, or undefined when nothing is there (a dangling link is something). */
export async function lstatOrNone(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Why a path is not a plain file of this user, or undefined when it is one. */
export function notOwnPlainFile(stats: Stats): string | undefined {
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (!stats.isFile()) return 'not a regular file';
  if (typeof process.getuid === 'function' && stats.uid !== process.getuid()) return 'owned by another user';
  if (stats.nlink > 1) return 'a file with other hard links';
  return undefined;
}

/**
 * Opens a file lstat shows to be a plain file of ours (O_NOFOLLOW added: a swap to a link fails);
 * undefined when it is not one, or turned into something else between the lstat and the open.
 */
export async function openOwnFile(path: string, flags: number): Promise<{ handle: FileHandle; size: number } | undefined> {
  const seen = await lstatOrNone(path);
  if (!seen || notOwnPlainFile(seen)) return undefined;
  let handle: FileHandle;
  try {
    handle = await open(path, flags | O_NOFOLLOW);
  } catch {
    return undefined;
  }
  const now = await handle.stat();
  if (now.ino === seen.ino && now.dev === seen.dev && now.nlink === 1) return { handle, size: now.size };
  await handle.close();
  return undefined;
}

export class FileExistsError extends WesError {
  constructor(readonly path: string, what = 'already exists', hint = 'pass --clobber to replace it, or --skip-existing to keep it') {
    super(`${path} ${what}; not replacing it`, {
      exitCode: ExitCode.ERROR,
      code: 'file_exists',
      hint,
      details: { path },
    });
  }
}

/**
 * Gives `temp` its final name. `replace`: rename, which swaps out whatever is there (a link
 * included, never its target). Otherwise the final name must be free: link() fails on any
 * existing name, links included, so a file that appeared meanwhile is not lost.
 */
export async function commitFile(temp: string, finalPath: string, replace: boolean): Promise<void> {
  if (replace) {
    await rename(temp, finalPath);
    return;
  }
  try {
    await link(temp, finalPath);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new FileExistsError(finalPath);
    // A file system without hard links: check, then rename (a narrow race, but never through a link).
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS' && code !== 'EXDEV') throw err;
    if (await lstatOrNone(finalPath)) throw new FileExistsError(finalPath);
    await rename(temp, finalPath);
    return;
  }
  await unlink(temp);
}

export interface WriteSafelyOptions {
  /** File mode of a new file (default 0666 less the umask). */
  mode?: number;
  /** Replace an existing file (default); false: an existing name is an error (FileExistsError). */
  replace?: boolean;
  /** fsync before the rename (files whose loss would cost a re-fetch: the model-id cache). */
  durable?: boolean;
}

/** Writes a whole file: fresh temp created exclusively, filled, then moved to `path`. */
export async function writeFileSafely(path: string, data: string | Uint8Array, options: WriteSafelyOptions = {}): Promise<void> {
  const fresh = await createFresh(path, options.mode);
  try {
    try {
      await fresh.handle.writeFile(data);
      if (options.mode !== undefined) await fresh.handle.chmod(options.mode); // the umask does not decide a private file's bits
      if (options.durable) await fresh.handle.sync();
    } finally {
      await fresh.handle.close();
    }
    await commitFile(fresh.path, path, options.replace ?? true);
  } catch (err) {
    await unlink(fresh.path).catch(() => undefined);
    throw err;
  }
}

/** mkdir -p, one level at a time (util/make-folders.ts: Node 20's own spins on some paths). */
export async function makeFolders(dir: string, mode?: number): Promise<void> {
  makeFoldersSync(dir, mode);
}
