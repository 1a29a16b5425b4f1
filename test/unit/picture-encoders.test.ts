// The picture encoders against known byte sequences: kitty's chunked APC, iTerm2's OSC 1337,
// sixel's header and palette for a tiny known image; and the thumbnail sizes they are given.
import { inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { KITTY_CHUNK, kittyChunks, kittyDelete, kittySequence } from '../../src/render/pictures/kitty.js';
import { itermSequence, pngFile } from '../../src/render/pictures/iterm.js';
import { exactPalette, sixelSequence } from '../../src/render/pictures/sixel.js';
import { decodePicture, fitWithin, pictureFormat, type Raster } from '../../src/render/pictures/raster.js';
import { terminalPicture } from '../../src/render/pictures/picture.js';

/** Left half red, right half blue. */
function halves(width: number, height: number): Raster {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data.set(x < width / 2 ? [255, 0, 0, 255] : [0, 0, 255, 255], (y * width + x) * 4);
  return { width, height, data };
}

function png(raster: Raster): Buffer {
  const image = new PNG({ width: raster.width, height: raster.height });
  image.data = Buffer.from(raster.data);
  return PNG.sync.write(image);
}

describe('kitty graphics protocol', () => {
  it('draws a 1x1 red pixel as one uncompressed chunk with m=0', () => {
    const red = { width: 1, height: 1, data: new Uint8Array([255, 0, 0, 255]) };
    expect(kittySequence(red, { columns: 1, rows: 1 })).toBe('\x1b_Ga=T,f=32,s=1,v=1,c=1,r=1,q=2,m=0;/wAA/w==\x1b\\');
    expect(kittySequence(red, { columns: 2, rows: 1, id: 7, keepCursor: true })).toBe('\x1b_Ga=T,f=32,s=1,v=1,c=2,r=1,i=7,C=1,q=2,m=0;/wAA/w==\x1b\\');
    expect(kittyDelete(7)).toBe('\x1b_Ga=d,d=I,i=7,q=2\x1b\\');
  });

  it('cuts the payload into chunks of 4096 base64 bytes: keys on the first, m=1 on all but the last', () => {
    const payload = 'A'.repeat(KITTY_CHUNK * 2 + 8);
    expect(kittyChunks('a=T,f=100', payload)).toBe(
      `\x1b_Ga=T,f=100,m=1;${'A'.repeat(4096)}\x1b\\` + `\x1b_Gm=1;${'A'.repeat(4096)}\x1b\\` + `\x1b_Gm=0;AAAAAAAA\x1b\\`,
    );
    expect(kittyChunks('a=T', 'A'.repeat(KITTY_CHUNK))).toBe(`\x1b_Ga=T,m=0;${'A'.repeat(4096)}\x1b\\`);
  });

  it('compresses a large picture (o=z) and the chunks join back into its pixels', () => {
    const raster = halves(64, 48);
    const sequence = kittySequence(raster, { columns: 8, rows: 3 });
    const chunks = [...sequence.matchAll(/\x1b_G([^;]*);([^\x1b]*)\x1b\\/g)];
    expect(chunks[0]![1]).toBe('a=T,f=32,s=64,v=48,o=z,c=8,r=3,q=2,m=' + (chunks.length > 1 ? '1' : '0'));
    for (const c of chunks.slice(0, -1)) expect(c[2]!.length).toBe(KITTY_CHUNK);
    expect(chunks.at(-1)![1]).toMatch(/m=0$/);
    expect(new Uint8Array(inflateSync(Buffer.from(chunks.map((c) => c[2]).join(''), 'base64')))).toEqual(raster.data);
  });
});

describe('iTerm2 inline images', () => {
  it('is one OSC 1337 File= sequence with the size, the cells and the base64 file, ended by BEL', () => {
    expect(itermSequence(Buffer.from('abc'), { columns: 2, rows: 1 })).toBe('\x1b]1337;File=inline=1;size=3;width=2;height=1;preserveAspectRatio=1:YWJj\x07');
  });

  it('carries a PNG of the raster', async () => {
    const raster = halves(4, 2);
    const file = await pngFile(raster);
    expect(pictureFormat(file)).toBe('png');
    expect(await decodePicture(file)).toEqual(raster);
  });
});

describe('sixel', () => {
  it('encodes a 2x2 red|blue picture with its exact two-colour palette', async () => {
    expect(await sixelSequence(halves(2, 2))).toBe('\x1bP0;1;q"1;1;2;2#0;2;100;0;0#1;2;0;0;100#0B$#1?B$\x1b\\');
  });

  it('keeps every colour of a picture with few; quantizes one with more than the registers', async () => {
    expect(exactPalette(halves(8, 8), 16)).toEqual([
      [255, 0, 0],
      [0, 0, 255],
    ]);
    const gradient = { width: 64, height: 6, data: new Uint8Array(64 * 6 * 4) };
    for (let i = 0; i < 64 * 6; i++) gradient.data.set([(i % 64) * 4, 0, 0, 255], i * 4);
    expect(exactPalette(gradient, 16)).toBeNull();
    const sequence = await sixelSequence(gradient, 16);
    expect(sequence.startsWith('\x1bP0;1;q"1;1;64;6')).toBe(true);
    expect(sequence.match(/#\d+;2;/g)!.length).toBeLessThanOrEqual(16);
  });
});

describe('thumbnails', () => {
  it('fits within the box keeping the aspect, never enlarging', () => {
    expect(fitWithin(1000, 500, 400, 320)).toEqual({ width: 400, height: 200 });
    expect(fitWithin(500, 1000, 400, 320)).toEqual({ width: 160, height: 320 });
    expect(fitWithin(30, 20, 400, 320)).toEqual({ width: 30, height: 20 });
  });

  it('draws a PNG as a thumbnail sized in cells for each protocol', async () => {
    const file = png(halves(800, 400));
    const terminal = { cell: { width: 10, height: 20 }, columns: 80 };
    const sixel = await terminalPicture(file, { ...terminal, protocol: 'sixel' });
    // 40 columns x 16 rows of 10x20 pixels: 400x320 at most; 800x400 becomes 400x200.
    expect(sixel).toMatchObject({ columns: 40, rows: 10 });
    // Resizing blends the two colours where they meet, so the palette holds more than red and blue.
    expect(sixel.sequence.startsWith('\x1bP0;1;q"1;1;400;200#0;2;100;0;0#')).toBe(true);
    const kitty = await terminalPicture(file, { ...terminal, protocol: 'kitty' }, { columns: 20, rows: 16 }, { kittyId: 3 });
    expect(kitty.sequence).toMatch(/^\x1b_Ga=T,f=32,s=200,v=100,o=z,c=20,r=5,i=3,C=1,q=2,m=[01];/);
    const iterm = await terminalPicture(file, { ...terminal, protocol: 'iterm', columns: 30 });
    expect(iterm.sequence).toMatch(/^\x1b\]1337;File=inline=1;size=\d+;width=29;height=8;preserveAspectRatio=1:[A-Za-z0-9+/=]+\x07$/);
  });

  it('refuses bytes that are neither PNG nor JPEG', async () => {
    await expect(decodePicture(new TextEncoder().encode('<svg/>'))).rejects.toThrow('not a PNG or JPEG picture');
  });
});
