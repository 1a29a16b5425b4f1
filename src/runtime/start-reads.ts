// The one buffer wes's start-up reads files into, one after the other: the npm build's modules
// (built-modules.ts) and their cached code (code-cache.ts). What is read is used up before the next
// read: a module's text is decoded into a string, and V8 reads cached code while it compiles a
// script and keeps none of it. A fresh buffer per file made the kernel provide every page of each
// (page faults cost 11-15 µs on small VMs); now only the pages of the largest file are touched.
import { readSync } from 'node:fs';

let buffer: Buffer | undefined;

/**
 * `size` bytes of the open file `fd`, from its start, read into the shared buffer at `at`; the
 * `at` bytes before them and `room` bytes after them are left for the caller to fill. Returns the
 * buffer, good until the next call, and the end of what was read (less than `at + size` when the
 * file was shorter).
 */
export function readIntoStartBuffer(fd: number, size: number, at = 0, room = 0): { bytes: Buffer; end: number } {
  const need = at + size + room;
  // Allocated and not touched: pages come as files fill them.
  if (buffer === undefined || buffer.length < need) buffer = Buffer.allocUnsafeSlow(Math.max(need, 1 << 20));
  let read = 0;
  for (let n = -1; n !== 0 && read < size; read += n) n = readSync(fd, buffer, at + read, size - read, read);
  return { bytes: buffer, end: at + read };
}
