import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isJsonNumber, isLosslessNumber, JsonNumberRangeError, LosslessNumber, parseJsonExact, stringifyJsonExact } from '../../src/util/exact-json.js';

describe('parseJsonExact', () => {
  it('keeps safe numbers as plain numbers', () => {
    expect(parseJsonExact('{"a":1,"b":-2.5,"c":[0.1,1e3,2e-5]}')).toEqual({ a: 1, b: -2.5, c: [0.1, 1000, 2e-5] });
  });

  it('keeps a 64-bit seed literal exactly', () => {
    const value = parseJsonExact('{"seed":18446744073709551615,"near":9007199254740993}') as Record<string, unknown>;
    expect(isLosslessNumber(value.seed)).toBe(true);
    expect(String(value.seed)).toBe('18446744073709551615');
    expect(String(value.near)).toBe('9007199254740993');
  });

  it('keeps a float with more digits than a double holds', () => {
    const value = parseJsonExact('[0.12345678901234567890123]') as unknown[];
    expect(String(value[0])).toBe('0.12345678901234567890123');
  });

  it('refuses a literal that would overflow, naming it', () => {
    expect(() => parseJsonExact('{"x":1e400}')).toThrow(JsonNumberRangeError);
    expect(() => parseJsonExact('[-1e400]')).toThrow(/-1e400 is too large for JSON/);
  });

  it('shortens a huge literal in its message', () => {
    const literal = '9'.repeat(400) + 'e400';
    let message = '';
    try {
      parseJsonExact(`[${literal}]`);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/404 characters/);
    expect(message.length).toBeLessThan(200);
  });

  it('throws SyntaxError for text that is not JSON', () => {
    expect(() => parseJsonExact('{"a":1,}')).toThrow(SyntaxError);
    expect(() => parseJsonExact('')).toThrow(SyntaxError);
  });

  it('never turns a __proto__ key into a prototype', () => {
    const value = parseJsonExact('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('stringifyJsonExact', () => {
  it('writes LosslessNumber literals verbatim, with indentation', () => {
    expect(stringifyJsonExact({ seed: new LosslessNumber('18446744073709551615'), cfg: 7.5 })).toBe('{"seed":18446744073709551615,"cfg":7.5}');
    expect(stringifyJsonExact([new LosslessNumber('1.000000000000000000001')], 2)).toBe('[\n  1.000000000000000000001\n]');
  });

  it('refuses a value with no JSON form', () => {
    expect(() => stringifyJsonExact(undefined)).toThrow(TypeError);
  });
});

describe('isJsonNumber', () => {
  it('is true for numbers and LosslessNumbers only', () => {
    expect(isJsonNumber(3)).toBe(true);
    expect(isJsonNumber(new LosslessNumber('12345678901234567890'))).toBe(true);
    expect(isJsonNumber('3')).toBe(false);
    expect(isJsonNumber({ value: '3' })).toBe(false);
    expect(isJsonNumber(null)).toBe(false);
  });
});

// Any decimal integer of up to 30 digits, any sign, any exponent that stays far from overflow.
const literal = fc
  .tuple(fc.boolean(), fc.stringMatching(/^(0|[1-9][0-9]{0,29})$/), fc.option(fc.stringMatching(/^[0-9]{1,20}$/)), fc.option(fc.integer({ min: -300, max: 280 })))
  .map(([neg, int, frac, exp]) => `${neg ? '-' : ''}${int}${frac === null ? '' : `.${frac}`}${exp === null ? '' : `e${exp}`}`);

describe('round trip', () => {
  it('writes every numeric literal back with the value it was read with', () => {
    fc.assert(
      fc.property(fc.array(literal, { maxLength: 8 }), (literals) => {
        const text = `{"values":[${literals.join(',')}]}`;
        const again = parseJsonExact(stringifyJsonExact(parseJsonExact(text))) as { values: unknown[] };
        const first = parseJsonExact(text) as { values: unknown[] };
        expect(again.values.map(String)).toEqual(first.values.map(String));
        for (const [i, v] of first.values.entries()) {
          expect(isJsonNumber(v)).toBe(true);
          // A plain number is one the double holds exactly as written; anything else keeps its text.
          if (typeof v === 'number') expect(v).toBe(Number(literals[i]));
          else expect(String(v)).toBe(literals[i]);
        }
      }),
    );
  });

  it('agrees with JSON.parse wherever JSON.parse is exact', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(stringifyJsonExact(parseJsonExact(text))).toBe(JSON.stringify(JSON.parse(text)));
      }),
    );
  });
});
