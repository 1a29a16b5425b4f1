// Large deterministic files generated on read, never held whole in memory: SaveBytes outputs.
import { Readable } from 'node:stream';
import { seededRandom } from './prng.js';

const BLOCK = 64 * 1024;
/** Base blocks of recently used seeds (64 KiB each); the oldest is dropped past this many. */
const CACHED_SEEDS = 16;
const bases = new Map<number, Buffer>();
/**
 * Stamped blocks kept for the next read of the same file (96 MiB of them, the least recently read
 * dropped first): an output is hashed at commit and then downloaded, resumed and downloaded again,
 * and each block made anew cost a copy into fresh memory, whose page faults were most of the
 * dev-server's CPU in a download (a 8 MiB download in-process: 111 ms of CPU, ~25% of it making
 * blocks). Readers never write into a chunk they are given (a fault that corrupts one copies it).
 */
const CACHED_BLOCKS = 1536;
const blocks = new Map<number, Buffer>();
/** Above any block index of a file (4 GiB: 2^16 blocks), so seed and index make one safe integer key. */
const INDEX_SPAN = 2 ** 21;

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
  const key = seed * INDEX_SPAN + index;
  let stamped = blocks.get(key);
  if (stamped) {
    blocks.delete(key);
  } else {
    stamped = Buffer.from(baseBlock(seed));
    stamped.writeUInt32LE(index >>> 0, 0);
    stamped.writeUInt32LE(Math.floor(index / 4294967296), 4);
  }
  blocks.set(key, stamped);
  if (blocks.size > CACHED_BLOCKS) blocks.delete(blocks.keys().next().value!);
  return stamped;
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
