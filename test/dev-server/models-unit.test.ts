// Pure parts of the dev router: cursors, page sizes, limit clamping, suggestions, If-None-Match.
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/dev-server/models/catalog.js';
import { decodeCursor, encodeCursor } from '../../src/dev-server/models/cursor.js';
import { ifNoneMatchHits } from '../../src/dev-server/models/docs.js';
import { effectiveLimit, pageSize } from '../../src/dev-server/models/list.js';
import { editDistance, suggestIds } from '../../src/dev-server/models/suggest.js';
import { CURSOR_PATTERN, isModelId } from '../../src/protocol/model-ids.js';

describe('cursors', () => {
  const key = randomBytes(32);

  it('round-trip any state and always carry + / = . ~', () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(100_000), fc.nat(10_000), (generation, position, page) => {
        const cursor = encodeCursor(key, { generation, position, page });
        expect(cursor.length).toBeLessThanOrEqual(512);
        expect(CURSOR_PATTERN.test(cursor)).toBe(true);
        for (const ch of '+/=.~') expect(cursor).toContain(ch);
        expect(decodeCursor(key, cursor, generation)).toEqual({ ok: true, state: { generation, position, page } });
      }),
      { numRuns: 200 },
    );
  });

  it('are stale in another generation and malformed when altered or signed by another key', () => {
    const cursor = encodeCursor(key, { generation: 3, position: 40, page: 2 });
    expect(decodeCursor(key, cursor, 4)).toEqual({ ok: false, reason: 'stale' });
    expect(decodeCursor(randomBytes(32), cursor, 3)).toEqual({ ok: false, reason: 'malformed' });
    expect(decodeCursor(key, cursor.replace('+', ' '), 3)).toEqual({ ok: false, reason: 'malformed' });
    expect(decodeCursor(key, `${cursor}A`, 3)).toEqual({ ok: false, reason: 'malformed' });
    expect(decodeCursor(key, '', 3)).toEqual({ ok: false, reason: 'malformed' });
    expect(decodeCursor(key, 'x'.repeat(513), 3)).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('page sizes and limits', () => {
  it('clamp the limit: default for absent, 0 and negatives, at most 100', () => {
    expect([null, '', '0', '-3', '1', '55', '100', '101', '9999'].map(effectiveLimit)).toEqual([20, 20, 20, 20, 1, 55, 100, 100, 100]);
    expect(effectiveLimit('2.5')).toBeUndefined();
    expect(effectiveLimit('abc')).toBeUndefined();
  });

  it('follow a fixed pattern of full, short and empty pages, the first always full', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((k) => pageSize(k, 30))).toEqual([30, 10, 0, 30, 10, 30, 30, 0]);
    expect(pageSize(1, 2)).toBe(1);
  });
});

describe('catalog', () => {
  it('holds exactly catalogSize valid, unique ids and reorders on rebuild', () => {
    const one = buildCatalog(500, 1);
    const two = buildCatalog(500, 2);
    expect(one.order.length).toBe(500);
    expect(one.byId.size).toBe(500);
    expect(one.order.every((m) => isModelId(m.entry.id) && m.entry.id === `${m.entry.provider}/${m.entry.model}`)).toBe(true);
    expect(new Set(two.order.map((m) => m.entry.id))).toEqual(new Set(one.order.map((m) => m.entry.id)));
    expect(two.order.map((m) => m.entry.id)).not.toEqual(one.order.map((m) => m.entry.id));
  });

  it('always includes the runnable models, even when asked for fewer', () => {
    expect(buildCatalog(2, 1).byId.has('dev/echo')).toBe(true);
  });
});

describe('suggestions', () => {
  it('measure edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('offer up to three nearby ids, nearest first', () => {
    const ids = ['dev/echo', 'dev/slow', 'dev/image', 'acme/chat-v1.0-0', 'dev/ech0'];
    expect(suggestIds('dev/eco', ids)).toEqual(['dev/echo', 'dev/ech0', 'dev/slow']);
    expect(suggestIds('dev/echx', ids)).toEqual(['dev/ech0', 'dev/echo', 'dev/slow']); // ties by id
    expect(suggestIds('completely/unrelated-thing', ids)).toEqual([]);
  });
});

describe('If-None-Match', () => {
  it('compares weakly and honours *', () => {
    expect(ifNoneMatchHits('"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('"x", W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('*', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('"abd"', '"abc"')).toBe(false);
    expect(ifNoneMatchHits(undefined, '"abc"')).toBe(false);
  });
});
