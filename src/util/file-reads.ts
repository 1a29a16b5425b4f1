// A file's bytes read into buffers the caller hands over and that are used again, not a new
// buffer per read: fresh memory for every read costs more in page faults and garbage than the
// work done on the bytes (hashing, sending).
import type { FileHandle } from 'node:fs/promises';

/**
 * Bytes [start, end) of an open file, read into `buffers` in turn: each piece is a view of one of
 * them, valid only until the reads come round to that buffer again (with one buffer: until the
 * next piece is asked for). Ends early at the file's end.
 */
export async function* readsInto(handle: FileHandle, buffers: Buffer[], start = 0, end = Infinity): AsyncGenerator<Buffer> {
  let position = start;
  for (let turn = 0; position < end; turn = (turn + 1) % buffers.length) {
    const buffer = buffers[turn]!;
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, end - position), position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}
