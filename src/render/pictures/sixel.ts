// Sixel (xterm -ti vt340, foot, mlterm, WezTerm, Windows Terminal, VS Code): a DCS sequence
// `ESC P 0;1;q "1;1;W;H #n;2;r;g;b ... ESC \` drawing the pixels themselves, so the raster is
// already at its shown size. The palette: every colour when the picture has few enough; otherwise
// node-sixel's quantizer (which merges colours that should stay apart when there are only a few).
import type { Raster } from './raster.js';

export const DEFAULT_COLOR_REGISTERS = 256;

type Sixel = typeof import('sixel');
let sixel: Promise<Sixel> | undefined;

function loadSixel(): Promise<Sixel> {
  // node-sixel's bundled UPNG assigns an undeclared global (`UPNG = {}`), which throws in the
  // strict-mode bundle ("use strict", as ES modules are) unless the global already exists.
  if (!('UPNG' in globalThis)) Object.assign(globalThis, { UPNG: undefined });
  return import('sixel').then((m) => (m as unknown as { default?: Sixel }).default ?? m);
}

export async function sixelSequence(raster: Raster, colorRegisters = DEFAULT_COLOR_REGISTERS): Promise<string> {
  const lib = await (sixel ??= loadSixel());
  const maxColors = Math.max(2, Math.min(DEFAULT_COLOR_REGISTERS, colorRegisters));
  const palette = exactPalette(raster, maxColors);
  if (palette?.length === 0) palette.push([0, 0, 0]);
  // Background select 1: transparent pixels leave what is on the screen.
  if (!palette) return lib.image2sixel(raster.data, raster.width, raster.height, maxColors, 1);
  return `${lib.introducer(1)}${lib.sixelEncode(raster.data, raster.width, raster.height, palette.map(([r, g, b]) => lib.toRGBA8888(r, g, b)))}${lib.FINALIZER}`;
}

/** The picture's colours in order of first appearance, or null when there are more than `max`. */
export function exactPalette(raster: Raster, max: number): Array<[number, number, number]> | null {
  const seen = new Map<number, [number, number, number]>();
  const { data } = raster;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] === 0) continue;
    const key = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
    if (seen.has(key)) continue;
    if (seen.size === max) return null;
    seen.set(key, [data[i]!, data[i + 1]!, data[i + 2]!]);
  }
  return [...seen.values()];
}
