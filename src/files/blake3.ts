// blake3 in the service's form `blake3:<hex>`, streaming in constant memory. The implementation
// (native binding, else WASM) is chosen in src/util/blake3.ts.
import { blake3Backend, blake3OfFile, createBlake3 as createHasher, type Blake3 } from '../util/blake3.js';
import type { HashSetting } from '../util/blake3-setting.js';

export type Blake3Hasher = Blake3;
export { blake3Backend };

/** A hasher of the implementation `setting` chooses (default: the process's environment's). */
export function createBlake3(setting?: HashSetting): Promise<Blake3Hasher> {
  return createHasher(blake3Backend(setting));
}

export function formatBlake3(hasher: Blake3Hasher): string {
  return `blake3:${hasher.hex()}`;
}

export function blake3File(path: string, setting?: HashSetting): Promise<string> {
  return blake3OfFile(path, blake3Backend(setting));
}

/** Compares `blake3:<hex>` values case-insensitively. */
export function sameHash(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
