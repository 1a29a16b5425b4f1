// Large deterministic files generated on read, never held whole in memory: SaveBytes outputs.
import { Readable } from 'node:stream';
import { seededRandom } from './prng.js';

const BLOCK = 64 * 1024;
/** A block's first bytes: its index, so that no two blocks of a file are equal. */
const STAMP_BYTES = 8;
/** Base blocks of recently used seeds (64 KiB each); the oldest is dropped past this many. */
const CACHED_SEEDS = 16;
const bases = new Map<number, Buffer>();

function baseBlock(seed: number): Buffer {
  let base = bases.get(seed);
  if (base) {
    bases.delete(seed);
  } else {
    const random = seededRandom(seed);
    base = Buffer.alloc(BLOCK);
    for (let i = 0; i < BLOCK; i += 4) base.writeUInt32LE(Math.floor(random() * 4294967296), i);
  }
  bases.set(seed, base);
  if (bases.size > CACHED_SEEDS) bases.delete(bases.keys().next().value!);
  return base;
}

function stamp(index: number): Buffer {
  const bytes = Buffer.allocUnsafe(STAMP_BYTES);
  bytes.writeUInt32LE(index >>> 0, 0);
  bytes.writeUInt32LE(Math.floor(index / 4294967296), 4);
  return bytes;
}

/**
 * Bytes [start, end] (inclusive) of the synthetic file of `size` bytes for `seed`: block by block,
 * each block its stamp and then the rest of the seed's base block. The two are pushed as they are,
 * never copied into one: a block copied into fresh memory cost page faults that were most of the
 * dev-server's CPU in a download (about 4 s of the suite's CPU). Readers never write into a chunk they
 * are given (a fault that corrupts one copies it), so the base block is shared by every read.
 */
export function syntheticStream(seed: number, size: number, range?: { start: number; end: number }): Readable {
  let position = range?.start ?? 0;
  const last = Math.min(range?.end ?? size - 1, size - 1);
  return new Readable({
    highWaterMark: BLOCK,
    read() {
      if (position > last) {
        this.push(null);
        return;
      }
      const index = Math.floor(position / BLOCK);
      const from = position - index * BLOCK;
      const to = Math.min(BLOCK, last - index * BLOCK + 1);
      position += to - from;
      if (from < STAMP_BYTES) this.push(stamp(index).subarray(from, Math.min(STAMP_BYTES, to)));
      if (to > STAMP_BYTES) this.push(baseBlock(seed).subarray(Math.max(STAMP_BYTES, from), to));
    },
  });
}
