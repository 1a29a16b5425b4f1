// A picture as pixels: PNG or JPEG bytes decoded (pngjs, jpeg-js) and shrunk to a thumbnail
// (pica's Lanczos filter), aspect kept. The libraries are loaded on the first picture only, so
// commands that draw none never pay for them.

/** 8-bit RGBA, row-major, width * height * 4 bytes. */
export interface Raster {
  width: number;
  height: number;
  data: Uint8Array;
}

export type PictureFormat = 'png' | 'jpeg';

/** What the bytes are, from their signature (a server's file name or media type may lie). */
export function pictureFormat(bytes: Uint8Array): PictureFormat | null {
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return null;
}

/** Decodes PNG or JPEG bytes; throws for anything else. */
export async function decodePicture(bytes: Uint8Array): Promise<Raster> {
  const format = pictureFormat(bytes);
  if (format === 'png') {
    const { PNG } = (await import('pngjs')).default;
    const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
    return { width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.length) };
  }
  if (format === 'jpeg') {
    const jpeg = (await import('jpeg-js')).default;
    // The limits keep a hostile JPEG from asking for gigabytes.
    const image = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: 100, maxMemoryUsageInMB: 512 });
    return { width: image.width, height: image.height, data: image.data };
  }
  throw new Error('not a PNG or JPEG picture');
}

/** The largest size within maxWidth x maxHeight with the picture's aspect; never larger than it is. */
export function fitWithin(width: number, height: number, maxWidth: number, maxHeight: number): { width: number; height: number } {
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

type Resizer = { resizeBuffer(options: { src: Uint8Array; width: number; height: number; toWidth: number; toHeight: number }): Promise<Uint8Array> };
let resizer: Promise<Resizer> | undefined;

/** The raster at exactly width x height (a no-op when it already is). */
export async function resizeRaster(raster: Raster, width: number, height: number): Promise<Raster> {
  if (raster.width === width && raster.height === height) return raster;
  // Plain JavaScript only: pica's WebAssembly and worker paths would load more for a thumbnail.
  resizer ??= import('pica').then((m) => (m.default as unknown as (options: { features: string[] }) => Resizer)({ features: ['js'] }));
  const data = await (await resizer).resizeBuffer({ src: raster.data, width: raster.width, height: raster.height, toWidth: width, toHeight: height });
  return { width, height, data };
}
