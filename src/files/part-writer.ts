// Appends a download's chunks to its part file as they arrive, with synchronous writes on the
// file's descriptor. A large chunk (the bulk http sockets read up to 1 MiB at a time) is written
// straight from the memory the socket read it into: no copy, nothing kept, since a chunk is valid
// only while it is being taken (see ChunkedBody). Small ones (TLS brings records of at most 16 KiB)
// are gathered first. Writes go to the page cache while the socket's kernel buffer holds what
// arrives meanwhile, as with curl. Measured, 1 GiB, interleaved runs against the in-process
// dev-server as the bench runs it:
// - against copying every chunk into 1 MiB batches written from the thread pool: CPU 1560-1670 ->
//   690 ms, wall 3.9-4.0 -> 1.8-2.4 s (curl: 770 ms, 2.0 s);
// - writes of at most 64 KiB: CPU 810-820 ms (sys 470-480) where 1 MiB writes took 1740-1950
//   (sys 1440-1660) and 16 KiB writes 1000-1100 (curl 720-840). ext4 (Linux 6.18) gives a write
//   a page-cache folio as large as the write, and filling fresh large folios cost this VM many
//   times what small ones did.
import { writeSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Blake3 } from '../util/blake3.js';

/** The most one write() is given: small chunks are gathered up to it, larger ones written in pieces of it. */
const WRITE_BYTES = 64 * 1024;

export class PartAppender {
  private gathered: Buffer | undefined;
  private used = 0;

  constructor(private readonly part: FileHandle) {}

  /** Appends `chunk` (written now, or gathered); throws what a write throws. */
  add(chunk: Uint8Array): void {
    if (chunk.length >= WRITE_BYTES) {
      this.flush();
      this.write(chunk);
      return;
    }
    this.gathered ??= Buffer.allocUnsafe(WRITE_BYTES);
    if (this.used + chunk.length > this.gathered.length) this.flush();
    this.gathered.set(chunk, this.used);
    this.used += chunk.length;
  }

  /** Writes what is gathered. */
  flush(): void {
    if (this.used === 0) return;
    const length = this.used;
    this.used = 0;
    this.write(this.gathered!.subarray(0, length));
  }

  private write(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; ) at += writeSync(this.part.fd, bytes, at, Math.min(WRITE_BYTES, bytes.length - at));
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

  constructor(
    handle: FileHandle,
    private readonly hasher: Blake3,
  ) {
    this.appender = new PartAppender(handle);
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
