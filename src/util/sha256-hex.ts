// SHA-256 of a string's UTF-8 bytes, in hex, for cache file names and content keys. Computed in
// JavaScript (@noble/hashes): node:crypto costs a command that only needs a key ~2 MB of memory and
// 16 modules at start-up. The digests are node:crypto's, so files and keys named before still match
// (test/unit/sha256-hex.test.ts).
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}
