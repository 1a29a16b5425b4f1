// A single `models run` source (--input or -d) is checked without the exact parser on the happy
// path and sent as the very bytes read; every refusal is the one the exact parser words.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { buildInput } from '../../src/clients/models/input.js';
import { isLosslessNumber } from '../../src/util/exact-json.js';

describe('buildInput from one source', () => {
  it('sends the same Buffer it was given, and its exact value on request', async () => {
    const bytes = Buffer.from('{"seed": 18446744073709551615, "prompt": "größer — 1e5 file123", "items": [1.5e-400, 2]}');
    const built = await buildInput({ base: { bytes, origin: 'in.json' }, pairs: [] });
    expect(built.bytes).toBe(bytes);
    expect(isLosslessNumber(built.value.seed)).toBe(true);
    expect(String(built.value.seed)).toBe('18446744073709551615');
  });

  it.each([
    ['{"a": 1e400}', /1e400 is too large for JSON/],
    ['{"a": -2.5E+0309}', /too large for JSON/],
    ['{"a": 1,}', /in\.json:1:9: not valid JSON/],
    ['[1, 2]', /must be a JSON object .*got an array/],
    ['"text"', /must be a JSON object .*got string/],
  ])('refuses %s with exit 2 and the exact parser\'s message', async (text, message) => {
    const attempt = buildInput({ base: { bytes: Buffer.from(text), origin: 'in.json' }, pairs: [] });
    await expect(attempt).rejects.toBeInstanceOf(UsageError);
    await expect(attempt).rejects.toThrow(message);
  });

  it('-d alone is checked the same way', async () => {
    await expect(buildInput({ data: '{"n": 1e999}', pairs: [] })).rejects.toThrow(/-d: the number 1e999/);
    expect((await buildInput({ data: '{"n": 1e99}', pairs: [] })).bytes.toString()).toBe('{"n": 1e99}');
  });
});
