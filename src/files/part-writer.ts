// Appends a download's chunks to its part file in whole 1 MiB writes: each chunk is copied into
// a batch buffer at once (a chunk is valid only while it is being taken: see ChunkedBody), full
// batches are written one after another on the file's descriptor while the next one fills, and
// their buffers are used again. More than two batches waiting holds the transfer back, so memory
// stays at a few MiB whatever the speed of the disk against the network.
import type { FileHandle } from 'node:fs/promises';

const BATCH_BYTES = 1 << 20;
const MAX_WAITING = 2;

export class PartWriter {
  private readonly free: Buffer[] = [];
  private batch: Buffer = Buffer.allocUnsafe(BATCH_BYTES);
  private used = 0;
  /** Batch writes not yet done, oldest first; each starts when the one before it has ended. */
  private readonly waiting: Promise<void>[] = [];
  private error: unknown;

  constructor(private readonly handle: FileHandle) {}

  /** Copies `chunk` in; returns a promise when the caller should wait for a write before the next chunk. */
  add(chunk: Uint8Array): Promise<void> | undefined {
    if (this.error !== undefined) throw this.error;
    for (let at = 0; at < chunk.length; ) {
      const copied = Math.min(chunk.length - at, this.batch.length - this.used);
      this.batch.set(chunk.subarray(at, at + copied), this.used);
      this.used += copied;
      at += copied;
      if (this.used === this.batch.length) this.writeBatch();
    }
    return this.waiting.length >= MAX_WAITING ? this.waiting[0] : undefined;
  }

  /** Writes what is left and waits for every write; throws the first write's failure. */
  async flush(): Promise<void> {
    if (this.used > 0 && this.error === undefined) this.writeBatch();
    while (this.waiting.length > 0) await this.waiting[this.waiting.length - 1]!.catch(() => undefined);
    if (this.error !== undefined) throw this.error;
  }

  private writeBatch(): void {
    const buffer = this.batch;
    const length = this.used;
    const before = this.waiting[this.waiting.length - 1] ?? Promise.resolve();
    const write = before.then(() => this.writeAll(buffer, length));
    this.waiting.push(write);
    // Registered before anyone waiting on `write`, so they see it gone when they go on.
    const done = () => void this.waiting.splice(this.waiting.indexOf(write), 1);
    write.then(
      () => (done(), this.free.push(buffer)),
      (err: unknown) => (done(), (this.error ??= err)),
    );
    this.batch = this.free.pop() ?? Buffer.allocUnsafe(BATCH_BYTES);
    this.used = 0;
  }

  private async writeAll(buffer: Buffer, length: number): Promise<void> {
    for (let at = 0; at < length; ) at += (await this.handle.write(buffer, at, length - at, null)).bytesWritten;
  }
}
