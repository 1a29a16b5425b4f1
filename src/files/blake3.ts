// blake3 in the service's form `blake3:<hex>`, streaming in constant memory. The implementation
// (native binding, else WASM) is chosen in src/util/blake3.ts.
import { Transform, type TransformCallback } from 'node:stream';
import { blake3Backend, blake3OfFile, createBlake3 as createHasher, updateFromFile, type Blake3 } from '../util/blake3.js';

export type Blake3Hasher = Blake3;
export { blake3Backend, updateFromFile };

export function createBlake3(): Promise<Blake3Hasher> {
  return createHasher();
}

export function formatBlake3(hasher: Blake3Hasher): string {
  return `blake3:${hasher.hex()}`;
}

export function blake3File(path: string): Promise<string> {
  return blake3OfFile(path);
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
