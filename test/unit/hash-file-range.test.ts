// updateFromFile over a range of a file, given by path or by a handle the caller keeps open (the
// kept .part of a resumed download): the bytes hashed are exactly the range, across the 1 MiB
// reads into one buffer used again, and a handle is left open for the caller.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createBlake3, updateFromFile } from '../../src/util/blake3.js';

const dir = mkdtempSync(join(tmpdir(), 'wes-hash-range-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function digestOf(bytes: Uint8Array): Promise<string> {
  const hasher = await createBlake3();
  hasher.update(bytes);
  return hasher.hex();
}

describe('updateFromFile', () => {
  const bytes = randomBytes(3 * (1 << 20) + 12_345);
  const file = join(dir, 'data.bin');
  writeFileSync(file, bytes);

  it('hashes a range that spans several reads, by path', async () => {
    const hasher = await createBlake3();
    expect(await updateFromFile(hasher, file, 1000, 2 * (1 << 20) + 77)).toBe(2 * (1 << 20) + 77 - 1000);
    expect(hasher.hex()).toBe(await digestOf(bytes.subarray(1000, 2 * (1 << 20) + 77)));
  });

  it('hashes a prefix through a handle and leaves the handle open', async () => {
    const handle = await open(file, 'r');
    try {
      const hasher = await createBlake3();
      expect(await updateFromFile(hasher, handle, 0, bytes.length - 5)).toBe(bytes.length - 5);
      expect(hasher.hex()).toBe(await digestOf(bytes.subarray(0, bytes.length - 5)));
      const tail = Buffer.alloc(5);
      await handle.read(tail, 0, 5, bytes.length - 5);
      expect(tail.equals(bytes.subarray(bytes.length - 5))).toBe(true);
    } finally {
      await handle.close();
    }
  });

  it('stops at the end of a file shorter than the range asked for', async () => {
    const hasher = await createBlake3();
    expect(await updateFromFile(hasher, file, bytes.length - 10)).toBe(10);
    expect(hasher.hex()).toBe(await digestOf(bytes.subarray(bytes.length - 10)));
  });
});
