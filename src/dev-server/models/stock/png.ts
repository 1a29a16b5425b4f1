// The dev models' PNG needs, on top of the engine's codec: a seeded picture of a given size, and
// the size of a PNG a caller sent (undefined when it is not a readable PNG).
import { gradientImage } from '../../engine/image.js';
import { decodePng, encodePng } from '../../engine/png.js';

export function encodeGradientPng(width: number, height: number, seed: number): Buffer {
  return encodePng(gradientImage(width, height, seed));
}

export function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  try {
    const image = decodePng(bytes);
    return { width: image.width, height: image.height };
  } catch {
    return undefined;
  }
}
