// Large deterministic files generated on read, never held in memory: SaveBytes outputs.
import { Readable } from 'node:stream';
import { seededRandom } from './prng.js';

const BLOCK = 64 * 1024;
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

/** Block `index` of the file: the seed's base block stamped with its index, so no two blocks are equal. */
function block(seed: number, index: number): Buffer {
  const copy = Buffer.from(baseBlock(seed));
  copy.writeUInt32LE(index >>> 0, 0);
  copy.writeUInt32LE(Math.floor(index / 4294967296), 4);
  return copy;
}

/** Bytes [start, end] (inclusive) of the synthetic file of `size` bytes for `seed`. */
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
      this.push(block(seed, index).subarray(from, to));
    },
  });
}
