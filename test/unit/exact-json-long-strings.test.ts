// Long string values are decoded by JSON.parse and the exact parser reads a stand-in in their place
// (src/util/exact-json-long-strings.ts): the value, and every error, are what the exact parser alone
// gives for the original text.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getUnsafeNumberReason, LosslessNumber, parse } from 'lossless-json';
import { isLosslessNumber, JsonTooDeepError, parseJsonExact } from '../../src/util/exact-json.js';
import { LONG_STRING, setAsideLongStrings } from '../../src/util/exact-json-long-strings.js';
import { binaryString } from '../helpers/arbitraries.js';

const long = (unit: string, n = LONG_STRING) => unit.repeat(Math.ceil(n / unit.length));
/** The exact parser on the whole text, as parseJsonExact read every text before. */
const exactAlone = (text: string) => parse(text, null, (s) => (getUnsafeNumberReason(s) === undefined ? Number(s) : new LosslessNumber(s)));
const errorOf = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    return `${(err as Error).name}: ${(err as Error).message}`;
  }
  return 'no error';
};

describe('parseJsonExact with long strings', () => {
  it('a long value is set aside, a long key is not', () => {
    const text = JSON.stringify({ [long('k')]: long('v'), short: 'v' });
    const setAside = setAsideLongStrings(text, isLosslessNumber)!;
    expect(setAside.text.length).toBeLessThan(text.length - LONG_STRING + 200);
    expect(setAside.text).toContain(long('k'));
    expect(parseJsonExact(text)).toEqual(JSON.parse(text));
  });

  it('escapes, non-ASCII and surrogate pairs come back exactly, beside a 64-bit seed', () => {
    const value = long('a"b\\c\nd\te\u0001é€😀/\u2028');
    const text = `{"prompt": ${JSON.stringify(value)}, "seed": 18446744073709551615, "list": [${JSON.stringify(value)}, "${long('\\u00e9')}"]}`;
    const parsed = parseJsonExact(text) as { prompt: string; seed: unknown; list: string[] };
    expect(parsed.prompt).toBe(value);
    expect(parsed.list).toEqual([value, long('é', LONG_STRING / 6)]);
    expect(isLosslessNumber(parsed.seed) && String(parsed.seed)).toBe('18446744073709551615');
  });

  it('a document that is one long string', () => {
    expect(parseJsonExact(JSON.stringify(long('x')))).toBe(long('x'));
  });

  it('"__proto__" holding a long string stays an own property, the prototype untouched', () => {
    const parsed = parseJsonExact(`{"__proto__": "${long('p')}", "o": {"__proto__": ["${long('q')}"]}}`) as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value).toBe(long('p'));
    expect(Object.getOwnPropertyDescriptor(parsed.o, '__proto__')?.value).toEqual([long('q')]);
  });

  it('duplicate keys: equal long values (however escaped) are one, different ones the exact parser refuses at its position', () => {
    const escaped = long('\\u0061', LONG_STRING * 6);
    const same = `{"a": "${long('a')}", "a": "${escaped}", "b": 1}`;
    expect(parseJsonExact(same)).toEqual(exactAlone(same));
    const differ = `{"a": "${long('a')}", "a": "${long('b')}"}`;
    expect(errorOf(() => parseJsonExact(differ))).toMatch(/^SyntaxError: Duplicate key 'a'/);
    expect(errorOf(() => parseJsonExact(differ))).toBe(errorOf(() => exactAlone(differ)));
    // A short literal and a long one with the same value.
    const mixed = `{"a": "${'a'.repeat(LONG_STRING)}", "a": "${long('a')}"}`;
    expect(parseJsonExact(mixed)).toEqual(exactAlone(mixed));
  });

  it('a control character inside a long string, an unclosed one, a syntax error after one: the exact parser\'s error, at its position in the text', () => {
    for (const text of [`{"a": "${long('x')}\u0001${long('y')}"}`, `{"a": "${long('x')}`, `{"a": "${long('x')}",}`, `["${long('x')}" "b"]`]) {
      const error = errorOf(() => parseJsonExact(text));
      expect(error).toMatch(/^SyntaxError: .* at position \d+/);
      expect(error).toBe(errorOf(() => exactAlone(text)));
    }
    expect(() => parseJsonExact(`{"a": "${long('x')}", "b": 1e400}`)).toThrow(/1e400 is too large for JSON/);
  });

  it('nesting too deep with a long string inside is still too deep', () => {
    const text = `${'['.repeat(20_000)}"${long('x')}"${']'.repeat(20_000)}`;
    expect(() => parseJsonExact(text)).toThrow(JsonTooDeepError);
  });

  it('a string that looks like a stand-in is left as it is: a document with a NUL in it is read whole by the exact parser', () => {
    const text = JSON.stringify({ a: '\u0000wes-set-aside-0', b: long('x'), c: long('y') });
    expect(setAsideLongStrings(text, isLosslessNumber)).toBeUndefined();
    expect(parseJsonExact(text)).toEqual(JSON.parse(text));
  });

  it('any JSON with long strings in it: the value the exact parser alone gives', () => {
    const longString = fc.tuple(binaryString({ minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 3 })).map(([unit, more]) => long(unit, LONG_STRING + more));
    const withLong = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }), longString, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 3 })),
    })).value;
    fc.assert(
      fc.property(withLong, fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(parseJsonExact(text)).toEqual(exactAlone(text));
      }),
      { numRuns: 50 },
    );
  });
});
