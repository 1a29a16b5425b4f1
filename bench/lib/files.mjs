// Test files: random bytes written in large blocks, so they do not compress and no tool can
// take a shortcut. Cached by size within one bench run.
import { closeSync, existsSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { randomFillSync } from 'node:crypto';
import { join } from 'node:path';

const BLOCK = 8 * 1024 * 1024;

export function randomFile(dir, name, size) {
  const path = join(dir, name);
  if (existsSync(path)) return path;
  const fd = openSync(path, 'w');
  const block = Buffer.allocUnsafe(BLOCK);
  try {
    for (let written = 0; written < size; written += BLOCK) {
      const length = Math.min(BLOCK, size - written);
      randomFillSync(block, 0, length);
      writeSync(fd, block, 0, length);
    }
    // Clean pages: background writeback would otherwise steal time from the first timed runs.
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Overwrites the first 8 bytes with a fresh value, so the file hashes to a new blob. */
export function stampFile(path, value) {
  const fd = openSync(path, 'r+');
  try {
    const stamp = Buffer.alloc(8);
    stamp.writeBigUInt64BE(BigInt(value));
    writeSync(fd, stamp, 0, 8, 0);
  } finally {
    closeSync(fd);
  }
}
