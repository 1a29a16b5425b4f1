// randomHex (temp and set-aside names that must not be guessed): hex of the length asked, from
// the kernel's random source, a different value every call.
import { describe, expect, it } from 'vitest';
import { randomHex } from '../../src/util/random-hex.js';

describe('randomHex', () => {
  it('gives `count` random bytes as lowercase hex, never the same twice in 1 000 draws', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const hex = randomHex(8);
      expect(hex).toMatch(/^[0-9a-f]{16}$/);
      seen.add(hex);
    }
    expect(seen.size).toBe(1000);
    expect(randomHex(4)).toMatch(/^[0-9a-f]{8}$/);
    // Every hex digit turns up: the bytes are not a counter or a clock.
    expect(new Set([...seen].join('')).size).toBe(16);
  });
});
