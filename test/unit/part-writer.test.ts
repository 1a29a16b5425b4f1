// appendChunk against a real file: chunks of every size, each taken only while it is valid (the
// caller's memory is reused at once, as the bulk sockets do), end up in the file in order; a write
// that fails throws at once, so the download stops with the disk's reason.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { appendChunk } from '../../src/files/part-writer.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wes-part-writer-'));
  dirs.push(dir);
  return join(dir, 'out.part');
}

describe('appendChunk', () => {
  it('appends chunks of every size in order after the bytes already there, each written before its memory is reused', async () => {
    const path = tempFile();
    writeFileSync(path, 'kept ');
    const handle = await open(path, 'a');
    const source = randomBytes(5 << 20);
    const scratch = Buffer.alloc(3 << 20);
    for (let at = 0, n = 1; at < source.length; n++) {
      const size = Math.min(source.length - at, (n * 104_729) % (3 << 20) || 1);
      source.copy(scratch, 0, at, at + size);
      appendChunk(handle, scratch.subarray(0, size));
      scratch.fill(0xee, 0, size); // the chunk is no longer valid once appendChunk returns
      at += size;
    }
    await handle.close();
    expect(readFileSync(path).equals(Buffer.concat([Buffer.from('kept '), source]))).toBe(true);
  });

  it('throws the failure of a write', async () => {
    const path = tempFile();
    writeFileSync(path, '');
    const handle = await open(path, 'r'); // not open for writing: the write fails with EBADF
    expect(() => appendChunk(handle, Buffer.alloc(100))).toThrow(expect.objectContaining({ code: 'EBADF' }));
    await handle.close();
  });
});
