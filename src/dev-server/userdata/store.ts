// The user folder behind the user-data routes (saved workflows): files by their path relative to
// the folder, and the folders that exist. In memory, one per dev-server (a WeakMap, so the state's
// shape is unchanged), starting as the recorded engines did: an empty `workflows/` folder.
import { posix } from 'node:path';
import { perState } from '../per-state.js';

export interface UserFile {
  bytes: Buffer;
  /** Epoch seconds with a fraction, as the engine's os.stat() gives them. */
  modified: number;
  created: number;
}

export class UserFolder {
  readonly files = new Map<string, UserFile>();
  readonly dirs = new Set<string>(['', 'workflows']);

  isDir(rel: string): boolean {
    return this.dirs.has(rel);
  }

  /** Creates `rel` and every folder above it. */
  makeDirs(rel: string): void {
    for (let dir = rel; dir !== '' && dir !== '.'; dir = posix.dirname(dir)) this.dirs.add(dir);
  }

  /** The engine's side effect on every file route: the parent of the path asked for is created. */
  makeParent(rel: string): void {
    this.makeDirs(posix.dirname(rel));
  }

  write(rel: string, bytes: Buffer, now: number): UserFile {
    this.makeParent(rel);
    const old = this.files.get(rel);
    const file = { bytes, modified: now, created: old?.created ?? now };
    this.files.set(rel, file);
    return file;
  }

  /** Files below `dir` (directly in it unless `recurse`), paths relative to `dir`, in the order written. */
  list(dir: string, recurse: boolean): Array<{ rel: string; file: UserFile }> {
    const prefix = dir === '' ? '' : `${dir}/`;
    const out: Array<{ rel: string; file: UserFile }> = [];
    for (const [path, file] of this.files) {
      if (!path.startsWith(prefix)) continue;
      const rel = path.slice(prefix.length);
      if (recurse || !rel.includes('/')) out.push({ rel, file });
    }
    return out;
  }
}

export const userFolderOf = perState(() => new UserFolder());

/**
 * The path relative to the user folder that `name` names, or null when it resolves outside it (the
 * engine joins the name to the folder, makes it absolute and compares: an absolute name, or `..`
 * climbing out, is refused; a `..` that stays inside is resolved).
 */
export function resolveUserPath(name: string): string | null {
  const root = '/user';
  const full = posix.normalize(posix.join(root, name));
  const absolute = name.startsWith('/') ? posix.normalize(name) : full;
  if (absolute !== root && !absolute.startsWith(`${root}/`)) return null;
  return absolute.slice(root.length + 1).replace(/\/+$/, '');
}

/** Python's urllib.parse.unquote: `%XX` decoded as UTF-8, an incomplete escape left as it is. */
export function unquoteLoose(text: string): string {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8');
    }
  });
}

/** The engine decodes a name once more whenever the routed (already decoded) name still holds a `%`. */
export function engineName(routed: string): string {
  return routed.includes('%') ? unquoteLoose(routed) : routed;
}

/** Seconds since the epoch with a fraction, as os.stat's st_mtime. */
export function epochSeconds(ms: number): number {
  return ms / 1000;
}
