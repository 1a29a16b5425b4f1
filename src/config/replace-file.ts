// Replaces a small state file whole and crash-safely, synchronously: the job history compacts
// inside its synchronous append (async callers use writeFileSafely in safe-file.ts). The new bytes
// go to an exclusively created temp file beside it (O_EXCL, O_NOFOLLOW: never an existing file or
// a planted link), are fsynced, and only then renamed over the old one, whole until that moment.
import { randomHex } from '../util/random-hex.js';
import { closeSync, constants, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';

export function replaceFileSync(path: string, data: string): void {
  const temp = `${path}.${randomHex(6)}.tmp`;
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
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
