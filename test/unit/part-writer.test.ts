// PartAppender against a real file: chunks of every size, large and small, each taken only while
// it is valid (the caller's memory is reused at once, as the bulk sockets do), end up in the file
// in order after the bytes already there, with small ones gathered into few writes; a write that
// fails throws, so the download stops with the disk's reason.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { PartAppender, pieceAt, WRITE_BYTES } from '../../src/files/part-writer.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wes-part-writer-'));
  dirs.push(dir);
  return join(dir, 'out.part');
}

describe('PartAppender', () => {
  it('appends large and small chunks in order after the bytes already there, each taken before its memory is reused', async () => {
    const path = tempFile();
    writeFileSync(path, 'kept ');
    const handle = await open(path, 'a');
    const part = new PartAppender(handle, 'kept '.length);
    const source = randomBytes(6 << 20);
    const scratch = Buffer.alloc(2 << 20);
    for (let at = 0, n = 1; at < source.length; n++) {
      // TLS-sized records, with now and then a large read.
      const size = Math.min(source.length - at, n % 7 === 0 ? (n * 104_729) % (2 << 20) || 1 : (n * 7919) % 16_384 || 1);
      source.copy(scratch, 0, at, at + size);
      part.add(scratch.subarray(0, size));
      scratch.fill(0xee, 0, size); // the chunk is no longer valid once add returns
      at += size;
    }
    part.flush();
    await handle.close();
    expect(readFileSync(path).equals(Buffer.concat([Buffer.from('kept '), source]))).toBe(true);
  });

  it('keeps small chunks until flushed, and then writes them', async () => {
    const path = tempFile();
    const handle = await open(path, 'a');
    const part = new PartAppender(handle);
    part.add(Buffer.from('abc'));
    part.add(Buffer.from('def'));
    expect(statSync(path).size).toBe(0);
    part.flush();
    expect(readFileSync(path, 'utf8')).toBe('abcdef');
    await handle.close();
  });

  it('writes in pieces that end on the boundaries they cross, so the page cache is filled in aligned blocks', () => {
    // A 1 MiB chunk that lands 1000 bytes into the file: up to the first boundary, whole pieces, then the rest.
    const pieces: number[] = [];
    for (let position = 1000, left = 1 << 20; left > 0; ) {
      const n = pieceAt(position, left);
      pieces.push(n);
      position += n;
      left -= n;
    }
    expect(pieces).toEqual([WRITE_BYTES - 1000, WRITE_BYTES, WRITE_BYTES, WRITE_BYTES, 1000]);
    expect(pieceAt(3 * WRITE_BYTES, 10)).toBe(10);
  });

  it('writes gathered small chunks as soon as they reach the next boundary, without waiting for a flush', async () => {
    const path = tempFile();
    writeFileSync(path, 'x'.repeat(100));
    const handle = await open(path, 'a');
    const part = new PartAppender(handle, 100);
    const record = Buffer.alloc(16 * 1024, 1);
    for (let i = 0; i < WRITE_BYTES / record.length; i++) part.add(record); // ends 100 bytes past the boundary
    expect(statSync(path).size).toBe(WRITE_BYTES);
    part.flush();
    expect(statSync(path).size).toBe(WRITE_BYTES + 100);
    await handle.close();
  });

  it('throws the failure of a write', async () => {
    const path = tempFile();
    writeFileSync(path, '');
    const handle = await open(path, 'r'); // not open for writing: the write fails with EBADF
    const part = new PartAppender(handle);
    expect(() => part.add(Buffer.alloc(WRITE_BYTES))).toThrow(expect.objectContaining({ code: 'EBADF' }));
    await handle.close();
  });
});
