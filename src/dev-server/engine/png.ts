// PNG encoding (8-bit RGB) and decoding (8-bit grey, grey+alpha, RGB, RGBA; not interlaced)
// with node:zlib, enough for the engine's own outputs and ordinary uploaded images.
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import type { RgbImage } from './image.js';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MAX_PIXELS = 4096 * 4096;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * `stored`: the pixels in zlib's stored (uncompressed) blocks (level 0), which every decoder reads.
 * For a sampler's preview frame (every step sends one, at most 32 pixels wide): compressing took
 * about 110 us of CPU a frame, most of a step's, to shrink 3 KiB of noise that hardly shrinks;
 * level 0 takes about 25 us.
 */
export function encodePng(image: RgbImage, { stored = false } = {}): Buffer {
  const { width, height, data } = image;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 0; // filter: none
    raw.set(data.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, stored ? { level: 0 } : {})), chunk('IEND', Buffer.alloc(0))]);
}

export class PngDecodeError extends Error {}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

function unfilter(raw: Buffer, width: number, height: number, bpp: number): Uint8Array {
  const stride = width * bpp;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[row + x - bpp]! : 0;
      const b = y > 0 ? out[row - stride + x]! : 0;
      const c = x >= bpp && y > 0 ? out[row - stride + x - bpp]! : 0;
      const v = line[x]!;
      switch (filter) {
        case 0: out[row + x] = v; break;
        case 1: out[row + x] = (v + a) & 0xff; break;
        case 2: out[row + x] = (v + b) & 0xff; break;
        case 3: out[row + x] = (v + ((a + b) >> 1)) & 0xff; break;
        case 4: out[row + x] = (v + paeth(a, b, c)) & 0xff; break;
        default: throw new PngDecodeError(`bad filter type ${filter}`);
      }
    }
  }
  return out;
}

export function decodePng(bytes: Buffer): RgbImage {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) throw new PngDecodeError('not a PNG file');
  let offset = 8;
  let width = 0;
  let height = 0;
  let colorType = -1;
  const idat: Buffer[] = [];
  while (offset + 8 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('ascii', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (data.length !== length) throw new PngDecodeError('truncated chunk');
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      colorType = data[9]!;
      if (data[8] !== 8 || data[12] !== 0 || !(colorType in CHANNELS)) {
        throw new PngDecodeError('only 8-bit, non-interlaced grey/RGB(A) PNGs are supported');
      }
      if (width === 0 || height === 0 || width * height > MAX_PIXELS) throw new PngDecodeError('image size out of range');
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  if (colorType < 0 || idat.length === 0) throw new PngDecodeError('missing IHDR or IDAT');
  const bpp = CHANNELS[colorType]!;
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(idat));
  } catch {
    throw new PngDecodeError('corrupt image data');
  }
  if (raw.length < (width * bpp + 1) * height) throw new PngDecodeError('image data too short');
  const pixels = unfilter(raw, width, height, bpp);
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    const grey = bpp <= 2;
    data[i * 3] = pixels[i * bpp]!;
    data[i * 3 + 1] = grey ? pixels[i * bpp]! : pixels[i * bpp + 1]!;
    data[i * 3 + 2] = grey ? pixels[i * bpp]! : pixels[i * bpp + 2]!;
  }
  return { width, height, data };
}
