// Replaces a small state file whole and crash-safely, synchronously (the job history writes its
// records inside synchronous calls; async callers use writeFileSafely in safe-file.ts). The new
// bytes go to an exclusively created temp file beside it (O_EXCL, O_NOFOLLOW: never an existing
// file or a planted link), are fsynced unless the caller syncs later, and only then renamed over
// the old one, whole until that moment.
import { randomHex } from '../util/random-hex.js';
import { closeSync, constants, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';

export interface ReplaceOptions {
  /** The temp file's path (default: beside `path`, named after it). */
  temp?: string;
  /** fsync before the rename (default true); false: the caller flushes it later. */
  durable?: boolean;
}

export function replaceFileSync(path: string, data: string, options: ReplaceOptions = {}): void {
  const temp = options.temp ?? `${path}.${randomHex(6)}.tmp`;
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, data);
    if (options.durable !== false) fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, path);
  } catch (err) {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
    throw err;
  }
}
