// The kitty graphics protocol (also spoken by Ghostty, WezTerm, Konsole): APC sequences
// `ESC _ G <keys> ; <base64> ESC \`, the payload cut into chunks of at most 4096 base64 bytes,
// every chunk but the last marked m=1. Raw RGBA (f=32) sized s x v, shown over c x r cells; q=2
// keeps the terminal from answering into stdin. A large payload is zlib-compressed (o=z).
import { deflateSync } from 'node:zlib';
import type { Raster } from './raster.js';

export const KITTY_CHUNK = 4096;
/** Below this many pixel bytes compression saves too little to be worth it. */
const COMPRESS_ABOVE = 4096;

export interface KittyPlacement {
  columns: number;
  rows: number;
  /** An image id: a later picture with the same id replaces it (the in-place preview). */
  id?: number;
  /** Leave the cursor where it was (C=1), for drawing in place. */
  keepCursor?: boolean;
}

/** Joins control keys and a base64 payload into the chunked APC sequences. */
export function kittyChunks(keys: string, base64: string): string {
  const parts: string[] = [];
  for (let at = 0; at < base64.length || at === 0; at += KITTY_CHUNK) {
    const chunk = base64.slice(at, at + KITTY_CHUNK);
    const more = at + KITTY_CHUNK < base64.length ? 1 : 0;
    parts.push(`\x1b_G${at === 0 ? `${keys},` : ''}m=${more};${chunk}\x1b\\`);
  }
  return parts.join('');
}

export function kittySequence(raster: Raster, placement: KittyPlacement): string {
  const compress = raster.data.length > COMPRESS_ABOVE;
  const payload = compress ? deflateSync(raster.data) : Buffer.from(raster.data.buffer, raster.data.byteOffset, raster.data.length);
  const keys = [
    'a=T',
    'f=32',
    `s=${raster.width}`,
    `v=${raster.height}`,
    ...(compress ? ['o=z'] : []),
    `c=${placement.columns}`,
    `r=${placement.rows}`,
    ...(placement.id !== undefined ? [`i=${placement.id}`] : []),
    ...(placement.keepCursor ? ['C=1'] : []),
    'q=2',
  ].join(',');
  return kittyChunks(keys, payload.toString('base64'));
}

/** Removes the image with this id from the screen (and frees its data). */
export function kittyDelete(id: number): string {
  return `\x1b_Ga=d,d=I,i=${id},q=2\x1b\\`;
}
