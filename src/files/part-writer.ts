// Appends a download's chunks to its part file as they arrive, with synchronous writes on the
// file's descriptor. A large chunk (the bulk http sockets read up to 1 MiB at a time) is written
// straight from the memory the socket read it into: no copy, nothing kept, since a chunk is valid
// only while it is being taken (see ChunkedBody). Small ones (TLS brings records of at most 16 KiB)
// are gathered first. Writes go to the page cache while the socket's kernel buffer holds what
// arrives meanwhile, as with curl. Every write ends at a multiple of WRITE_BYTES in the file where
// it can (the piece of a chunk up to the next boundary, then whole pieces, then the rest), so the
// page cache is filled in aligned blocks of that size. Measured (bench/RESULTS.md, issue 31):
// - against copying every chunk into 1 MiB batches written from the thread pool: 1 GiB CPU
//   1560-1670 -> 690 ms, wall 3.9-4.0 -> 1.8-2.4 s (curl: 770 ms, 2.0 s);
// - ext4 (Linux 6.18) gives a write a page-cache folio as large as the write and as its offset's
//   alignment allows. 256 MiB written in pieces of a 1 MiB buffer: 64 KiB pieces that do not end
//   on 64 KiB boundaries 101-118 ms of system time, aligned 70-79, aligned 256 KiB 63-77; 1 MiB
//   writes took 55-62 ms in most runs and 340-350 in a third of them (fresh 1 MiB folios, which
//   this VM sometimes fills many times slower), so 256 KiB.
import { writeSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Blake3 } from '../util/blake3.js';

/** The most one write() is given, and the boundary in the file that writes end on. */
export const WRITE_BYTES = 256 * 1024;
/** Chunks smaller than this are gathered into pieces; larger ones are written from where they lie. */
const GATHER_BELOW = 64 * 1024;

/** The length of the write at `position` in the file with `left` bytes to go: up to the next boundary. */
export function pieceAt(position: number, left: number): number {
  return Math.min(left, WRITE_BYTES - (position % WRITE_BYTES));
}

export class PartAppender {
  private gathered: Buffer | undefined;
  private used = 0;

  /** `position`: the part file's size, where the next byte goes (it is open for appending). */
  constructor(
    private readonly part: FileHandle,
    private position = 0,
  ) {}

  /** Appends `chunk` (written now, or gathered); throws what a write throws. */
  add(chunk: Uint8Array): void {
    if (chunk.length >= GATHER_BELOW) {
      this.flush();
      this.write(chunk);
      return;
    }
    for (let at = 0; at < chunk.length; ) {
      this.gathered ??= Buffer.allocUnsafe(WRITE_BYTES);
      // The gathered piece starts at `position` and is written once it reaches the next boundary.
      const room = pieceAt(this.position, Infinity) - this.used;
      const n = Math.min(chunk.length - at, room);
      this.gathered.set(chunk.subarray(at, at + n), this.used);
      this.used += n;
      at += n;
      if (n === room) this.flush();
    }
  }

  /** Writes what is gathered. */
  flush(): void {
    if (this.used === 0) return;
    const length = this.used;
    this.used = 0;
    this.write(this.gathered!.subarray(0, length));
  }

  /** Writes `bytes` in pieces that end on the boundaries they cross. */
  private write(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; ) {
      const n = writeSync(this.part.fd, bytes, at, pieceAt(this.position, bytes.length - at));
      at += n;
      this.position += n;
    }
  }
}

/** What has been written and hashed since the last settle, and the write that failed, if one did. */
export interface Settled {
  bytes: number;
  failure?: unknown;
}

/**
 * A download's part file and the hash of what is written to it: each chunk is appended and
 * hashed, here (LocalPart) or on another thread (part-thread.ts).
 */
export interface PartStream {
  /** Appends and hashes one chunk, valid only during the call; throws when a write failed. */
  add(chunk: Uint8Array): void;
  /** Waits until every chunk added is written and hashed. */
  settle(): Promise<Settled>;
  /** Lowercase hex of the blake3 of every byte hashed; the stream is spent afterwards. */
  digest(): Promise<string>;
  /** Gives the stream up (a restarted download): what it hashed is not wanted. */
  drop(): void;
}

/** A part stream on this thread: synchronous writes (PartAppender), then the hash. */
export class LocalPart implements PartStream {
  private readonly appender: PartAppender;
  private bytes = 0;

  /** `size`: the bytes already in the file, all of them hashed into `hasher`. */
  constructor(
    handle: FileHandle,
    private readonly hasher: Blake3,
    size: number,
  ) {
    this.appender = new PartAppender(handle, size);
  }

  add(chunk: Uint8Array): void {
    this.appender.add(chunk);
    this.hasher.update(chunk);
    this.bytes += chunk.length;
  }

  async settle(): Promise<Settled> {
    const bytes = this.bytes;
    this.bytes = 0;
    try {
      this.appender.flush();
      return { bytes };
    } catch (failure) {
      return { bytes, failure };
    }
  }

  async digest(): Promise<string> {
    return this.hasher.hex();
  }

  drop(): void {}
}
