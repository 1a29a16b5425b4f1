// The engine's in-memory image: 8-bit RGB, row-major. Operations are deterministic.
import { seededRandom } from './prng.js';

export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array; // width * height * 3
  /** Images in the batch, all alike (EmptyImage's batch_size); absent: 1. A saving node saves each. */
  batch?: number;
}

/** Every channel v becomes 255 - v (ImageInvert), the batch kept. */
export function invertImage(image: RgbImage): RgbImage {
  const data = new Uint8Array(image.data.length);
  for (let i = 0; i < data.length; i++) data[i] = 255 - image.data[i]!;
  return { ...image, data };
}

export function solidImage(width: number, height: number, color: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  const r = (color >> 16) & 0xff;
  const g = (color >> 8) & 0xff;
  const b = color & 0xff;
  for (let i = 0; i < data.length; i += 3) {
    data[i] = r;
    data[i + 1] = g;
    data[i + 2] = b;
  }
  return { width, height, data };
}

/** One "denoising" step: every channel moves by seeded noise scaled by `strength` (0..1). */
export function perturb(image: RgbImage, seed: number, strength: number): RgbImage {
  const random = seededRandom(seed);
  const amplitude = 96 * strength;
  const data = new Uint8Array(image.data.length);
  for (let i = 0; i < data.length; i++) {
    const moved = image.data[i]! + (random() - 0.5) * amplitude;
    data[i] = moved < 0 ? 0 : moved > 255 ? 255 : Math.round(moved);
  }
  return { width: image.width, height: image.height, data };
}

/** Nearest-neighbour shrink so the long edge is at most `edge` pixels (for preview frames). */
export function thumbnail(image: RgbImage, edge: number): RgbImage {
  const scale = Math.min(1, edge / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(image.height - 1, Math.floor(y / scale));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(image.width - 1, Math.floor(x / scale));
      const from = (sy * image.width + sx) * 3;
      const to = (y * width + x) * 3;
      data[to] = image.data[from]!;
      data[to + 1] = image.data[from + 1]!;
      data[to + 2] = image.data[from + 2]!;
    }
  }
  return { width, height, data };
}

/** A horizontal gradient between two colours picked from a seed (partner "generations"). */
export function gradientImage(width: number, height: number, seed: number): RgbImage {
  const random = seededRandom(seed);
  const from = [random() * 255, random() * 255, random() * 255];
  const to = [random() * 255, random() * 255, random() * 255];
  const data = new Uint8Array(width * height * 3);
  for (let x = 0; x < width; x++) {
    const t = width === 1 ? 0 : x / (width - 1);
    for (let c = 0; c < 3; c++) {
      const value = Math.round(from[c]! + (to[c]! - from[c]!) * t);
      for (let y = 0; y < height; y++) data[(y * width + x) * 3 + c] = value;
    }
  }
  return { width, height, data };
}
