// The scan finds raw control bytes in its one pass (no separate search of the whole body first):
// each of the 32 is refused inside a string, and between tokens only tab, LF and CR pass, as
// JSON.parse has it.
import { describe, expect, it } from 'vitest';
import { isCertainlyJsonObject } from '../../src/util/json-object-scan.js';

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const CONTROL = Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c));

describe('control bytes in the scan', () => {
  it('refuses each raw inside a key or a value, at the start, middle and end', () => {
    for (const c of CONTROL) {
      for (const text of [`{"${c}a":1}`, `{"a":"x${c}y"}`, `{"a":"${c}"}`, `{"a":["ok","z${c}"]}`]) {
        expect(parses(text), JSON.stringify(text)).toBe(false);
        expect(isCertainlyJsonObject(Buffer.from(text)), JSON.stringify(text)).toBe(false);
      }
    }
  });

  it('between tokens, agrees with JSON.parse: tab, LF and CR only', () => {
    for (const c of CONTROL) {
      for (const text of [`${c}{"a":1}`, `{${c}"a":1}`, `{"a"${c}:1}`, `{"a":${c}1}`, `{"a":1${c}}`, `{"a":[1,${c}2]}`, `{"a":1}${c}`]) {
        expect(isCertainlyJsonObject(Buffer.from(text)), JSON.stringify(text)).toBe(parses(text));
      }
    }
  });
});
