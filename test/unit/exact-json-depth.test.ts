import { describe, expect, it } from 'vitest';
import { JsonRefusedError, JsonTooDeepError, parseJsonExact } from '../../src/util/exact-json.js';

describe('parseJsonExact nesting', () => {
  it('reads the nesting the service accepts', () => {
    expect(parseJsonExact('['.repeat(512) + '1' + ']'.repeat(512))).toBeInstanceOf(Array);
  });

  it('refuses nesting that overflows its stack as JsonTooDeepError, a JsonRefusedError', () => {
    const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    expect(() => parseJsonExact(deep)).toThrow(JsonTooDeepError);
    expect(() => parseJsonExact(deep)).toThrow(JsonRefusedError);
  });

  it('still throws SyntaxError for text that is not JSON', () => {
    expect(() => parseJsonExact('[1,')).toThrow(SyntaxError);
  });
});
