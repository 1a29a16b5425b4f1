// Both blake3 implementations (the native binding and the WASM fallback) against the official
// BLAKE3 test vectors (input: bytes i % 251), fed whole and in odd-sized pieces, and against
// b3sum on the same file when b3sum is installed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { blake3Backend, blake3OfFile, createBlake3, updateFromFile, type Blake3Backend } from '../../src/util/blake3.js';

// Digests printed by b3sum 1.2.0; the same as the BLAKE3 reference test_vectors.json.
const VECTORS: Array<[number, string]> = [
  [0, 'af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262'],
  [1, '2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213'],
  [1023, '10108970eeda3eb932baac1428c7a2163b0e924c9a9e25b35bba72b28f70bd11'],
  [1024, '42214739f095a406f3fc83deb889744ac00df831c10daa55189b5d121c855af7'],
  [1025, 'd00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444'],
  [8193, 'bab6c09cb8ce8cf459261398d2e7aef35700bf488116ceb94a36d0f5f1b7bc3b'],
  [102400, 'bc3e3d41a1146b069abffad3c0d44860cf664390afce4d9661f7902e7943e085'],
  [3145731, '4e51361129e2cf33100daa4166344bfbc311e732ba18ba091df5c36c50688a68'],
];

/** `length` bytes, byte `i` being `byteAt(i)`: filled in place (a 5 MB array of numbers first took seconds of CPU). */
function bytesOf(length: number, byteAt: (i: number) => number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = byteAt(i);
  return bytes;
}

/** The BLAKE3 test vectors' input. */
const vectorInput = (length: number) => bytesOf(length, (i) => i % 251);
/** Bytes that do not repeat within a read. */
const scrambled = (length: number) => bytesOf(length, (i) => (i * 2654435761) >>> 24);

const dir = mkdtempSync(join(tmpdir(), 'wes-blake3-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const forced = process.env.WES_BLAKE3;
afterEach(() => {
  if (forced === undefined) delete process.env.WES_BLAKE3;
  else process.env.WES_BLAKE3 = forced;
});

function nativeInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('@napi-rs/blake-hash');
    return true;
  } catch {
    return false;
  }
}

describe('blake3 implementations', () => {
  it('the native binding is used when its package is installed, and WES_BLAKE3=wasm forces the fallback', () => {
    delete process.env.WES_BLAKE3;
    expect(blake3Backend()).toBe(nativeInstalled() ? 'native' : 'wasm');
    process.env.WES_BLAKE3 = 'wasm';
    expect(blake3Backend()).toBe('wasm');
  });

  const backends: Blake3Backend[] = nativeInstalled() ? ['native', 'wasm'] : ['wasm'];
  for (const backend of backends) {
    describe(backend, () => {
      it('gives the reference digest for every test vector, whole and in odd pieces', async () => {
        for (const [length, digest] of VECTORS) {
          const input = vectorInput(length);
          const whole = await createBlake3(backend);
          whole.update(input);
          expect(whole.hex(), `length ${length}`).toBe(digest);
          const pieces = await createBlake3(backend);
          for (let at = 0; at < length; at += 65_537) pieces.update(input.subarray(at, at + 65_537));
          expect(pieces.hex(), `length ${length} in pieces`).toBe(digest);
        }
      });

      it('continues over a file prefix read from disk, then the rest as a stream would bring it', async () => {
        const [length, digest] = VECTORS.at(-1)!;
        const input = vectorInput(length);
        const part = join(dir, `${backend}.part`);
        writeFileSync(part, input.subarray(0, 1_500_001));
        const hasher = await createBlake3(backend);
        expect(await updateFromFile(hasher, part, 0, 1_500_001)).toBe(1_500_001);
        hasher.update(input.subarray(1_500_001));
        expect(hasher.hex()).toBe(digest);
      });

      it('hashes any range of a file, across read boundaries, and stops at its end', async () => {
        const bytes = scrambled(5_000_003);
        const file = join(dir, `${backend}-range.bin`);
        writeFileSync(file, bytes);
        for (const [start, end] of [[0, Infinity], [1, 262_145], [262_144, 4_456_449], [4_999_000, 9_000_000], [7, 7]] as const) {
          const fromFile = await createBlake3(backend);
          const hashed = await updateFromFile(fromFile, file, start, end);
          const slice = bytes.subarray(start, Math.min(end, bytes.length));
          expect(hashed, `${start}-${end}`).toBe(slice.length);
          const direct = await createBlake3(backend);
          direct.update(slice);
          expect(fromFile.hex(), `${start}-${end}`).toBe(direct.hex());
        }
      });
    });
  }

  it.runIf(hasB3sum())('agrees with b3sum on the same file, on both paths (skipped where b3sum is not installed)', async () => {
    const file = join(dir, 'random.bin');
    writeFileSync(file, scrambled(5_000_000));
    const expected = `blake3:${execFileSync('b3sum', ['--no-names', file], { encoding: 'utf8' }).trim()}`;
    for (const backend of backends) expect(await blake3OfFile(file, backend), backend).toBe(expected);
  });
});

function hasB3sum(): boolean {
  try {
    execFileSync('b3sum', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
