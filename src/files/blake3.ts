// blake3 (hash-wasm: the fastest well-kept implementation measured here; see bench) in the
// service's form `blake3:<hex>`, streaming in constant memory.
import { createBLAKE3, type IHasher } from 'hash-wasm';
import { createReadStream } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';

export type Blake3Hasher = IHasher;

export function createBlake3(): Promise<Blake3Hasher> {
  return createBLAKE3();
}

export function formatBlake3(hasher: Blake3Hasher): string {
  return `blake3:${hasher.digest('hex')}`;
}

export async function blake3File(path: string): Promise<string> {
  const hasher = await createBlake3();
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hasher.update(chunk as Buffer);
  return formatBlake3(hasher);
}

/** A pass-through that hashes what flows through it (hash while downloading, not after). */
export class HashingStream extends Transform {
  bytes = 0;
  constructor(private readonly hasher: Blake3Hasher) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.hasher.update(chunk);
    this.bytes += chunk.length;
    done(null, chunk);
  }
  digest(): string {
    return formatBlake3(this.hasher);
  }
}

/** Compares `blake3:<hex>` values case-insensitively. */
export function sameHash(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
