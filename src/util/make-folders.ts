// mkdir -p, one level at a time. Node 20's recursive mkdir never returns where a level cannot be
// made and mkdir answers ENOENT (`mkdirSync('/proc/x/y', { recursive: true })` spins at 100% CPU,
// and a synchronous loop takes no SIGTERM): a config or cache folder there hung every command.
// This one fails with the first level's error.
import { lstatSync, mkdirSync, statSync } from 'node:fs';
import { dirname, parse, resolve } from 'node:path';

/** Makes `dir` and the folders above it that are missing; the first one it made, as mkdirSync's recursive form answers, or undefined. */
export function makeFoldersSync(dir: string, mode?: number): string | undefined {
  const full = resolve(dir);
  const missing: string[] = [];
  for (let at = full; ; at = dirname(at)) {
    let present = false;
    try {
      present = lstatSync(at, { throwIfNoEntry: false }) !== undefined;
    } catch {
      // Not readable (EACCES, ENOTDIR): the mkdir below says why.
    }
    if (present) break;
    missing.unshift(at);
    if (at === parse(at).root) break;
  }
  // Something at the path that is no folder (a file): mkdir says so (EEXIST), as Node's own does.
  if (missing.length === 0 && !statSync(full, { throwIfNoEntry: false })?.isDirectory()) mkdirSync(full);
  let first: string | undefined;
  for (const level of missing) {
    try {
      mkdirSync(level, mode === undefined ? undefined : { mode });
      first ??= level;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return first;
}
