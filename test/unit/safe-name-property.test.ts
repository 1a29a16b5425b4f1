// Properties of server-supplied file names beyond test/unit/safe-name.test.ts: long names that
// collide (a numbered name must still fit, and handing one out must end), names Windows would
// merge (trailing dot or space after a cut), and stability (a safe name stays as it is).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { safeFileName, UniqueNames } from '../../src/files/safe-name.js';
import { binaryString } from '../helpers/arbitraries.js';

const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/** Names built to hit the length limit: long runs of one- to four-byte characters, dots, an extension. */
const longName = fc
  .tuple(
    fc.constantFrom('x', 'é', '中', '😀', '.', ' ', 'a.b'),
    fc.integer({ min: 40, max: 320 }),
    fc.constantFrom('', '.png', '.tar.gz', '.part', '.', ' ', '.averyveryverylongextension'),
  )
  .map(([unit, n, ext]) => unit.repeat(n) + ext);

const anyName = fc.oneof(longName, binaryString({ maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 60 }));

describe('safeFileName (properties)', () => {
  it('never ends in a dot or a space, is never a reserved device name, fits 200 bytes', () => {
    fc.assert(
      fc.property(anyName, (raw) => {
        const name = safeFileName(raw);
        expect(name).not.toMatch(/[. ]$/);
        expect(RESERVED.test(name)).toBe(false);
        expect(Buffer.byteLength(name)).toBeLessThanOrEqual(200);
      }),
      { numRuns: 1500 },
    );
  });

  it('leaves a name it produced unchanged', () => {
    fc.assert(
      fc.property(anyName, (raw) => {
        const once = safeFileName(raw);
        expect(safeFileName(once)).toBe(once);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('UniqueNames (properties)', () => {
  it('hands out distinct names within 200 bytes, never a .part, for colliding long names', () => {
    fc.assert(
      fc.property(fc.array(longName, { minLength: 2, maxLength: 12 }), fc.integer({ min: 1, max: 4 }), (raws, copies) => {
        const names = new UniqueNames();
        const out = raws.flatMap((raw) => Array.from({ length: copies }, () => names.reserve(raw)));
        expect(new Set(out.map((n) => n.toLowerCase())).size).toBe(out.length);
        for (const name of out) {
          expect(Buffer.byteLength(name)).toBeLessThanOrEqual(200);
          expect(name.toLowerCase().endsWith('.part')).toBe(false);
          expect(name).not.toMatch(/[/\\]/);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('numbers a 300-byte name that repeats (it used to loop forever) and keeps its extension', () => {
    const names = new UniqueNames();
    const raw = `${'x'.repeat(300)}.png`;
    const [first, second, third] = [names.reserve(raw), names.reserve(raw), names.reserve(raw)];
    expect(second).toMatch(/ \(1\)\.png$/);
    expect(third).toMatch(/ \(2\)\.png$/);
    for (const name of [first, second, third]) expect(Buffer.byteLength(name)).toBeLessThanOrEqual(200);
  });
});
