// The byte scan that lets `models run` send an input file without parsing it: it may say "not
// sure" about anything, but "certainly an object" only when JSON.parse agrees (it is the oracle
// here) and no number may overflow.
import { describe, expect, it } from 'vitest';
import { isCertainlyJsonObject } from '../../src/util/json-object-scan.js';

/** A number too large for a double parses to Infinity. */
function hasInfinity(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (value !== null && typeof value === 'object') return Object.values(value).some(hasInfinity);
  return false;
}

function parsesToObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

const scan = (text: string | Buffer) => isCertainlyJsonObject(typeof text === 'string' ? Buffer.from(text) : text);

describe('isCertainlyJsonObject', () => {
  it.each([
    '{}',
    ' \n\t{ }\r\n',
    '{"a":1}',
    '{"prompt":"größer — 😀 \\u00e9 \\n \\" \\\\ \\/","n":-0.5e-7,"big":18446744073709551615,"e":1E+99,"z":0}',
    '{"a":[],"b":{},"c":[[],{}],"d":[1,"x",true,false,null,{"e":[2.25]}]}',
    '{"a":1,"a":2}',
    '{"tiny":1.5e-400}',
  ])('is certain about %s', (text) => {
    expect(parsesToObject(text)).toBe(true);
    expect(scan(text)).toBe(true);
  });

  it.each([
    ['an array', '[1]'],
    ['a string', '"x"'],
    ['a number', '1'],
    ['empty input', ''],
    ['a trailing comma', '{"a":1,}'],
    ['a missing colon', '{"a" 1}'],
    ['a leading zero', '{"a":01}'],
    ['a bare minus', '{"a":-}'],
    ['a dot without digits', '{"a":1.}'],
    ['a truncated literal', '{"a":tru}'],
    ['two values', '{"a":[1 2]}'],
    ['text after the object', '{"a":1} x'],
    ['a second object', '{}{}'],
    ['an unknown escape', '{"a":"\\x"}'],
    ['a short unicode escape', '{"a":"\\u12g4"}'],
    ['a raw line break in a string', '{"a":"x\ny"}'],
    ['a raw control byte', '{"a":"x\u0001y"}'],
    ['an unclosed string', '{"a":"x'],
    ['an unclosed object', '{"a":{"b":1}'],
    ['a mismatched closer', '{"a":[1}'],
    ['a byte-order mark', '\ufeff{}'],
    ['a key that is not a string', '{a:1}'],
    ['an exponent that may overflow', '{"a":1e400}'],
    ['an exponent with a plus that may overflow', '{"a":-2.5E+0309}'],
  ])('is not sure about %s', (_what, text) => {
    expect(scan(text)).toBe(false);
  });

  it('agrees with JSON.parse for every kind of value, in an object and in an array, before each thing that may follow', () => {
    // The automaton keeps one state per container kind for what is inside a value, so each kind
    // of value is checked in both, before a comma, each closer, white space and a stray byte. It
    // is unsure, by design, of a positive exponent of three significant digits.
    const MAY_OVERFLOW = /\d[eE]\+?0*[1-9]\d{2}/;
    const values = ['"s"', '"\\u00e9\\n"', '0', '-0', '12', '-3.25', '1e5', '2E-9', '4e+07', '0.5e010', '6e099', 'true', 'false', 'null', '{}', '[]', '{"k":[1]}', '[{"k":2}]'];
    const follows = [',', '}', ']', ' ', 'x', '.', 'e', '0'];
    let checked = 0;
    for (const value of values) {
      for (const follow of follows) {
        for (const text of [`{"a":${value}${follow}}`, `{"a":[${value}${follow}]}`, `{"a":[${value}${follow}1]}`, `{"a":${value}${follow}"b":1}`]) {
          expect(scan(text), text).toBe(parsesToObject(text) && !MAY_OVERFLOW.test(text));
          checked++;
        }
      }
    }
    expect(checked).toBe(values.length * follows.length * 4);
  });

  it('is not sure about nesting deeper than its stack', () => {
    const deep = `{"a":${'['.repeat(600)}${']'.repeat(600)}}`;
    expect(parsesToObject(deep)).toBe(true);
    expect(scan(deep)).toBe(false);
  });

  it('is never certain where JSON.parse refuses: 20 000 mutated documents', () => {
    const seedText = '{"a":[1,-2.5e-3,true,false,null,"x\\u00e9\\n"],"b":{"c":"d","e":[]},"f":0}';
    const alphabet = '{}[]",:.-+eE0123456789 \\untrflasx\n\t\u0001é';
    let state = 42;
    const next = (limit: number) => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % limit;
    };
    let certain = 0;
    for (let round = 0; round < 20_000; round++) {
      const chars = [...seedText];
      for (let edits = 1 + next(3); edits > 0; edits--) {
        const at = next(chars.length + 1);
        const kind = next(3);
        if (kind === 0) chars.splice(at, 1);
        else if (kind === 1) chars.splice(at, 0, alphabet[next(alphabet.length)]!);
        else chars[at] = alphabet[next(alphabet.length)]!;
      }
      const text = chars.join('');
      if (!scan(text)) continue;
      certain++;
      expect({ text, parses: parsesToObject(text) }).toEqual({ text, parses: true });
      expect(hasInfinity(JSON.parse(text))).toBe(false);
    }
    expect(certain).toBeGreaterThan(1000); // the mutations left many valid documents to be certain about
  });

  it('reads invalid UTF-8 inside strings as JSON.parse reads the decoded text (replacement characters)', () => {
    const bytes = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xc3]), Buffer.from('"}')]);
    expect(parsesToObject(bytes.toString('utf8'))).toBe(true);
    expect(scan(bytes)).toBe(true);
    expect(scan(Buffer.concat([Buffer.from('{"a":1}'), Buffer.from([0xff])]))).toBe(false);
  });
});
