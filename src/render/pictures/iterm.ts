// iTerm2's inline images (also WezTerm, VS Code, mintty): one OSC 1337 sequence carrying a
// whole image file, `ESC ] 1337 ; File=inline=1;size=N;width=C;height=R;preserveAspectRatio=1 : BASE64 BEL`.
// The terminal decodes the file itself; width and height are in cells.
import type { Raster } from './raster.js';

export interface ItermPlacement {
  columns: number;
  rows: number;
}

/** The sequence for an encoded image file (PNG here). */
export function itermSequence(file: Uint8Array, placement: ItermPlacement): string {
  const base64 = Buffer.from(file.buffer, file.byteOffset, file.length).toString('base64');
  return `\x1b]1337;File=inline=1;size=${file.length};width=${placement.columns};height=${placement.rows};preserveAspectRatio=1:${base64}\x07`;
}

/** The raster as a PNG file (pngjs, loaded with the first picture). */
export async function pngFile(raster: Raster): Promise<Uint8Array> {
  const { PNG } = (await import('pngjs')).default;
  return PNG.sync.write({ width: raster.width, height: raster.height, data: Buffer.from(raster.data.buffer, raster.data.byteOffset, raster.data.length) } as never, { colorType: 6 });
}
