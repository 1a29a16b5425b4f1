// The dev-server's preview frames are PNGs whose pixels sit in zlib's stored blocks (deflate level 0: nothing
// compressed per sampler step): still PNGs every decoder reads, with the sampler's pixels, of any size.
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gradientImage, perturb, solidImage } from '../../src/dev-server/engine/image.js';
import { decodePng, encodePng } from '../../src/dev-server/engine/png.js';

/** The IDAT chunk's data (the engine writes one). */
function idatOf(png: Buffer): Buffer {
  for (let at = 8; at + 8 <= png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('ascii', at + 4, at + 8) === 'IDAT') return png.subarray(at + 8, at + 8 + length);
    at += 12 + length;
  }
  throw new Error('no IDAT');
}

describe('encodePng stored', () => {
  it.each([
    ['a 4x4 preview', perturb(solidImage(4, 4, 0x336699), 7, 1)],
    ['a 32x32 preview', perturb(gradientImage(32, 32, 3), 11, 0.5)],
    // 200 rows of 361 bytes: two stored blocks, the last one short.
    ['an image over one stored block (64 KiB)', gradientImage(120, 200, 5)],
  ])('%s: the same pixels as the compressed PNG, in stored blocks zlib reads', (_name, image) => {
    const stored = encodePng(image, { stored: true });
    const pixels = (png: Buffer) => Buffer.from(decodePng(png).data);
    // Compared as buffers: a deep comparison of 72 000 numbers takes seconds.
    expect(pixels(stored).equals(Buffer.from(image.data))).toBe(true);
    expect(pixels(stored).equals(pixels(encodePng(image)))).toBe(true);
    expect([decodePng(stored).width, decodePng(stored).height]).toEqual([image.width, image.height]);
    const idat = idatOf(stored);
    // zlib's own reader checks the header, each block's length and its complement, and the Adler-32.
    const raw = inflateSync(idat);
    expect(raw.length).toBe((image.width * 3 + 1) * image.height);
    // Stored: header, 5 bytes a block of at most 65535, the pixels as they are, the checksum.
    expect(idat.length).toBe(2 + Math.ceil(raw.length / 0xffff) * 5 + raw.length + 4);
  });
});
