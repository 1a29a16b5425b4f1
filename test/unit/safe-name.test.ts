import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join, resolve, dirname } from 'node:path';
import { safeFileName, UniqueNames } from '../../src/files/safe-name.js';
import { binaryString } from '../helpers/arbitraries.js';

describe('safeFileName', () => {
  it.each([
    ['../../x.png', '____x.png'],
    ['a/b\\c.png', 'a_b_c.png'],
    ['..', 'output'],
    ['', 'output'],
    ['nul\u0000.png', '_nul.png'],
    ['CON', '_CON'],
    ['com1.txt', '_com1.txt'],
    ['evil\u2215name.png', 'evil_name.png'],
    ['full\uff0fwidth', 'full_width'],
    ['.hidden', '_hidden'],
    ['name. ', 'name'],
  ])('%j becomes %j', (raw, expected) => {
    expect(safeFileName(raw)).toBe(expected);
  });

  it('cuts a 300-byte name to 200 bytes and keeps the extension', () => {
    const name = safeFileName('é'.repeat(150) + '.png');
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(200);
    expect(name.endsWith('.png')).toBe(true);
  });

  it('never leaves the target folder, for any input', () => {
    const dir = resolve('/tmp/target');
    fc.assert(
      fc.property(binaryString({ maxLength: 400 }), (raw) => {
        const name = safeFileName(raw);
        expect(name.length).toBeGreaterThan(0);
        expect(name).not.toMatch(/[\/\\\u0000-\u001f]/);
        expect(name).not.toBe('.');
        expect(name).not.toBe('..');
        expect(Buffer.byteLength(name)).toBeLessThanOrEqual(200);
        expect(dirname(resolve(join(dir, name)))).toBe(dir);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('UniqueNames', () => {
  it('keeps two outputs with one name apart', () => {
    const names = new UniqueNames();
    expect(names.reserve('out.png')).toBe('out.png');
    expect(names.reserve('out.png')).toBe('out (1).png');
    expect(names.reserve('OUT.png')).toBe('OUT (2).png');
    expect(names.reserve('../out.png')).toBe('__out.png');
  });

  it('never hands out the same name twice', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 20 }), { maxLength: 50 }), (raws) => {
        const names = new UniqueNames();
        const out = raws.map((r) => names.reserve(r).toLowerCase());
        expect(new Set(out).size).toBe(out.length);
      }),
    );
  });
});
