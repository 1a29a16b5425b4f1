import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sanitize, sanitizeLine, sanitizeDeep } from '../../src/util/sanitize.js';
import { toSafeJson } from '../../src/util/safe-json.js';
import { binaryString } from '../helpers/arbitraries.js';

const DANGEROUS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('sanitize', () => {
  it('removes CSI, OSC (BEL and ST terminated), BEL and bidi overrides', () => {
    expect(sanitize('a\u001b[31mred\u001b[0m')).toBe('ared');
    expect(sanitize('\u001b]0;pwned\u0007title')).toBe('title');
    expect(sanitize('\u001b]8;;http://evil\u001b\\link\u001b]8;;\u001b\\')).toBe('link');
    expect(sanitize('ding\u0007')).toBe('ding');
    expect(sanitize('abc\u202edcba')).toBe('abcdcba');
    expect(sanitize('\u009b2Jclear')).toBe('clear');
  });

  it('keeps newlines and tabs, and sanitizeLine folds them', () => {
    expect(sanitize('a\nb\tc')).toBe('a\nb\tc');
    expect(sanitizeLine('a\nb\tc')).toBe('a b c');
  });

  it('leaves no control character in any output', () => {
    fc.assert(fc.property(binaryString(), (s) => !DANGEROUS.test(sanitize(s))));
  });

  it('sanitizes keys and values deeply', () => {
    expect(sanitizeDeep({ 'k\u001b[1m': ['v\u0007', 1] })).toEqual({ k: ['v', 1] });
  });
});

describe('toSafeJson', () => {
  it('escapes C1 and bidi characters but decodes to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = toSafeJson(v);
        expect(DANGEROUS.test(text)).toBe(false);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
  });
});
