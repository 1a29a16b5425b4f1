// blake3 in the service's form `blake3:<hex>`, streaming in constant memory. The implementation
// (native binding, else WASM) is chosen in src/util/blake3.ts.
import { blake3Backend, blake3OfFile, createBlake3 as createHasher, type Blake3 } from '../util/blake3.js';

export type Blake3Hasher = Blake3;
export { blake3Backend };

export function createBlake3(): Promise<Blake3Hasher> {
  return createHasher();
}

export function formatBlake3(hasher: Blake3Hasher): string {
  return `blake3:${hasher.hex()}`;
}

export function blake3File(path: string): Promise<string> {
  return blake3OfFile(path);
}

/** Compares `blake3:<hex>` values case-insensitively. */
export function sameHash(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
