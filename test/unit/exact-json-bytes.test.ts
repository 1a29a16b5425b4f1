// A request body's bytes are exactly the UTF-8 of stringifyJsonExact's text, whether its long
// strings go in straight from the string (the body of a large workflow) or the text is made whole
// (strings JSON escapes, and strings that look like the stand-ins of the first way).
import { describe, expect, it } from 'vitest';
import { jsonBytes } from '../../src/util/exact-json-bytes.js';
import { LosslessNumber, parseJsonExact, stringifyJsonExact } from '../../src/util/exact-json.js';

const long = (c: string, n = 5000) => c.repeat(Math.ceil(n / c.length)).slice(0, n);
const STAND_IN_0 = '\u0000wes-long-string-0';

const cases: Array<[string, unknown]> = [
  ['no long string', { workflow: { '1': { class_type: 'A', inputs: { seed: new LosslessNumber('12345678901234567891'), x: 1.5 } } } }],
  ['a long ASCII string among exact numbers', { workflow: { '2': { _meta: { notes: long('x', 300_000) }, inputs: { seed: new LosslessNumber('18446744073709551615') } } }, metadata: 'k' }],
  ['long strings in arrays and at the top', [long('a'), { b: long('é€') }, long('c', 1024), long('d', 1023)]],
  ['a long string as the whole value', long('z')],
  ['the same long string twice', { a: long('q'), b: long('q') }],
  ['long strings JSON escapes', { quote: long('a"b'), slash: long('a\\b'), control: long('a\nb\u0001'), pair: long('a😀'), lone: long('a\ud800b') }],
  ['a long key', { [long('k')]: long('v') }],
  ['a value that is a stand-in', { a: STAND_IN_0, b: long('v') }],
  ['a value that is a stand-in, after the long one', { b: long('v'), a: STAND_IN_0, c: long('w') }],
  ['a key that is a stand-in', { [STAND_IN_0]: 1, b: long('v') }],
  ['a stand-in inside a string', { a: `x"${STAND_IN_0}"`, b: long('v') }],
  ['undefined and functions left out', { a: undefined, b: () => 1, c: [undefined, long('v')], d: long('w') }],
];

describe('jsonBytes', () => {
  it.each(cases)('%s: the bytes of stringifyJsonExact', (_name, value) => {
    const bytes = jsonBytes(value);
    expect(bytes.equals(Buffer.from(stringifyJsonExact(value), 'utf8'))).toBe(true);
  });

  it('reads back as the value, exact numbers and long strings whole', () => {
    const value = { workflow: { '2': { notes: long('n', 100_000), seed: new LosslessNumber('12345678901234567891') } } };
    expect(stringifyJsonExact(parseJsonExact(jsonBytes(value).toString('utf8')))).toBe(stringifyJsonExact(value));
  });

  it('refuses what has no JSON form, as stringifyJsonExact does', () => {
    expect(() => jsonBytes(undefined)).toThrow(TypeError);
  });
});
