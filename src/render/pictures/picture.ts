// One picture for the terminal: the image file's bytes decoded, shrunk to a thumbnail (aspect
// kept) and encoded for the terminal's protocol. Only these encoders' bytes reach the terminal:
// nothing of the file (or of any text the server sent) is passed through.
import type { PictureProtocol } from './detect.js';
import { decodePicture, fitWithin, resizeRaster } from './raster.js';
import { kittySequence } from './kitty.js';
import { itermSequence, pngFile } from './iterm.js';
import { sixelSequence } from './sixel.js';

export interface PictureTerminal {
  protocol: PictureProtocol;
  /** Size of one character cell in pixels (asked, or a common guess). */
  cell: { width: number; height: number };
  colorRegisters?: number;
  /** Width of the terminal in columns. */
  columns: number;
}

/** The most a thumbnail takes, in cells. */
export interface ThumbnailBox {
  columns: number;
  rows: number;
}

export const THUMBNAIL: ThumbnailBox = { columns: 40, rows: 16 };

export interface TerminalPicture {
  /** The escape sequence that draws it, at the cursor. */
  sequence: string;
  columns: number;
  rows: number;
}

export interface DrawOptions {
  /** kitty: an image id, so a later picture can replace it in place; and keep the cursor still. */
  kittyId?: number;
}

export async function terminalPicture(bytes: Uint8Array, terminal: PictureTerminal, box: ThumbnailBox = THUMBNAIL, options: DrawOptions = {}): Promise<TerminalPicture> {
  const source = await decodePicture(bytes);
  const { cell } = terminal;
  const maxColumns = Math.max(4, Math.min(box.columns, terminal.columns - 1));
  const size = fitWithin(source.width, source.height, maxColumns * cell.width, box.rows * cell.height);
  const raster = await resizeRaster(source, size.width, size.height);
  const columns = Math.max(1, Math.ceil(size.width / cell.width));
  const rows = Math.max(1, Math.ceil(size.height / cell.height));
  switch (terminal.protocol) {
    case 'kitty':
      return { sequence: kittySequence(raster, { columns, rows, id: options.kittyId, keepCursor: options.kittyId !== undefined }), columns, rows };
    case 'iterm':
      return { sequence: itermSequence(await pngFile(raster), { columns, rows }), columns, rows };
    case 'sixel':
      return { sequence: await sixelSequence(raster, terminal.colorRegisters), columns, rows };
  }
}
