// The catalog over HTTP: paging with short and empty pages, limit clamping, opaque cursors that a
// rebuild invalidates, detail, unknown and malformed ids, and credentials.
import { describe, expect, it } from 'vitest';
import { rebuildCatalog } from '../../src/dev-server/models/index.js';
import { isModelId } from '../../src/protocol/model-ids.js';
import { useDevServer } from '../helpers/dev-server.js';
import { call } from './models-http.js';

const big = useDevServer({ catalogSize: 10_000, routerTokens: ['limited-1'], notEnabledTokens: ['not-yet'] });

async function walk(base: string, limit?: number): Promise<{ ids: string[]; pages: number; short: number; empty: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  let short = 0;
  let empty = 0;
  for (;;) {
    const query = new URLSearchParams();
    if (limit !== undefined) query.set('limit', String(limit));
    if (cursor !== undefined) query.set('cursor', cursor);
    const page = await call(base, `/v1/models?${query}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-comfy-request-id')).toMatch(/\S/);
    const body = page.json;
    pages++;
    expect(body.data.length).toBeLessThanOrEqual(body.limit);
    if (body.has_more && body.data.length === 0) empty++;
    else if (body.has_more && body.data.length < body.limit) short++;
    ids.push(...body.data.map((e: { id: string }) => e.id));
    expect('next_cursor' in body).toBe(body.has_more);
    if (!body.has_more) break;
    cursor = body.next_cursor;
  }
  return { ids, pages, short, empty };
}

describe('GET /v1/models', () => {
  it('walks 10 000 models at limit 100 and sees every id exactly once, across short and empty pages', async () => {
    const { ids, short, empty } = await walk(big.server.url, 100);
    expect(ids.length).toBe(10_000);
    expect(new Set(ids).size).toBe(10_000);
    expect(short).toBeGreaterThan(0);
    expect(empty).toBeGreaterThan(0);
    for (const id of ['dev/echo', 'dev/upscale', 'dev/image', 'dev/slow', 'dev/moderated', 'dev/broken', 'dev/flaky', 'dev/metered', 'dev/timeout']) {
      expect(ids).toContain(id);
    }
    expect(ids.every(isModelId)).toBe(true);
  });

  it('walks with the default page size as well', async () => {
    const { ids, pages } = await walk(big.server.url);
    expect(new Set(ids).size).toBe(10_000);
    expect(pages).toBeGreaterThan(500);
  });

  it('serves well-formed entries with a billing policy', async () => {
    const page = await call(big.server.url, '/v1/models?limit=100');
    for (const entry of page.json.data) {
      expect(entry.id).toBe(`${entry.provider}/${entry.model}`);
      expect(['always', 'never', 'when_provider_charges']).toContain(entry.billing.charges_on_policy_rejection);
      expect(Object.keys(entry).sort()).toEqual(['billing', 'id', 'model', 'provider']);
    }
  });

  it.each([
    ['', 20],
    ['?limit=0', 20],
    ['?limit=-5', 20],
    ['?limit=7', 7],
    ['?limit=100', 100],
    ['?limit=101', 100],
    ['?limit=100000', 100],
  ])('serves %s with limit %i', async (query, served) => {
    const page = await call(big.server.url, `/v1/models${query}`);
    expect(page.status).toBe(200);
    expect(page.json.limit).toBe(served);
    expect(page.json.data.length).toBe(served); // the first page is always full
  });

  it('refuses a limit that is not an integer with 400 invalid_input (the list route has no 422)', async () => {
    const page = await call(big.server.url, '/v1/models?limit=ten');
    expect(page.status).toBe(400);
    expect(page.headers.get('x-comfy-error-type')).toBe('invalid_input');
    expect(page.json).toEqual({ detail: expect.stringContaining('limit'), error_type: 'invalid_input' });
  });

  it('hands out cursors with + / = . ~ that only work when passed back exactly', async () => {
    const first = await call(big.server.url, '/v1/models?limit=5');
    const cursor: string = first.json.next_cursor;
    for (const ch of ['+', '/', '=', '.', '~']) expect(cursor).toContain(ch);
    expect(cursor).toMatch(/^[A-Za-z0-9._~+/=-]{1,512}$/);
    const exact = await call(big.server.url, `/v1/models?limit=5&cursor=${encodeURIComponent(cursor)}`);
    expect(exact.status).toBe(200);
    // `+` left unencoded arrives as a space: not the cursor that was issued.
    const mangled = await call(big.server.url, `/v1/models?limit=5&cursor=${cursor}`);
    expect(mangled.status).toBe(400);
    expect(mangled.json).toEqual({ detail: expect.stringContaining('malformed'), error_type: 'invalid_input' });
    const forged = await call(big.server.url, `/v1/models?cursor=${encodeURIComponent(cursor.replace(/c1\.(.)/, (_m, c: string) => `c1.${c === 'e' ? 'f' : 'e'}`))}`);
    expect(forged.status).toBe(400);
    expect(forged.headers.get('x-comfy-error-type')).toBe('invalid_input');
  });

  it('refuses a cursor from before a rebuild as expired, and the new walk starts over', async () => {
    const server = (await import('../helpers/dev-server.js')).startFast({ catalogSize: 50 });
    const s = await server;
    try {
      const first = await call(s.url, '/v1/models?limit=10');
      const generation = rebuildCatalog(s.state);
      expect(generation).toBe(2);
      const stale = await call(s.url, `/v1/models?cursor=${encodeURIComponent(first.json.next_cursor)}`);
      expect(stale.status).toBe(400);
      expect(stale.headers.get('x-comfy-error-type')).toBe('invalid_input');
      expect(stale.json).toEqual({ detail: expect.stringContaining('expired'), error_type: 'invalid_input' });
      const again = await call(s.url, '/v1/models?limit=10');
      expect(again.json.data.map((e: { id: string }) => e.id)).not.toEqual(first.json.data.map((e: { id: string }) => e.id));
      const { ids } = await walk(s.url, 10);
      expect(new Set(ids).size).toBe(50);
    } finally {
      await s.close();
    }
  });
});

describe('GET /v1/models/{provider}/{model}', () => {
  it('returns the entry with an https input_schema_url', async () => {
    const detail = await call(big.server.url, '/v1/models/dev/upscale');
    expect(detail.status).toBe(200);
    expect(detail.json).toMatchObject({ id: 'dev/upscale', provider: 'dev', model: 'upscale', billing: { charges_on_policy_rejection: 'when_provider_charges' } });
    expect(detail.json.input_schema_url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v1\/models\/dev\/upscale\/openapi\.json$/);
  });

  it('leaves input_schema_url out for models with no published schema', async () => {
    const page = await call(big.server.url, '/v1/models?limit=100');
    const details = await Promise.all(page.json.data.map((e: { id: string }) => call(big.server.url, `/v1/models/${e.id}`)));
    const without = details.filter((d) => !('input_schema_url' in d.json));
    expect(without.length).toBeGreaterThan(0);
    expect(details.length - without.length).toBeGreaterThan(0);
  });

  it('answers an unknown id with 404 model_not_found and up to three suggestions', async () => {
    const missing = await call(big.server.url, '/v1/models/dev/ecko');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-comfy-error-type')).toBe('model_not_found');
    expect(missing.json.error_type).toBe('model_not_found');
    expect(missing.json.detail).toContain('dev/echo');
    const unknownProvider = await call(big.server.url, '/v1/models/nobody-here/at-all-zzz', { method: 'POST', body: {} });
    expect(unknownProvider.status).toBe(404);
    expect(unknownProvider.json.error_type).toBe('model_not_found');
  });

  it('refuses segments that break the id pattern with 422 on the call route, listing both; 404 on GET', async () => {
    const bad = await call(big.server.url, '/v1/models/Dev/echo..x', { method: 'POST', body: {} });
    expect(bad.status).toBe(422);
    expect(bad.headers.get('x-comfy-error-type')).toBe('invalid_input');
    expect(bad.json.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([['path', 'provider'], ['path', 'model']]);
    const long = await call(big.server.url, `/v1/models/${'a'.repeat(65)}/echo`);
    expect(long.status).toBe(404);
    expect(long.json.error_type).toBe('model_not_found');
  });

  it('answers other shapes under /v1/models with 404 and a request id', async () => {
    const odd = await call(big.server.url, '/v1/models/dev/echo/extra/more');
    expect(odd.status).toBe(404);
    expect(odd.headers.get('x-comfy-request-id')).toMatch(/\S/);
    expect(odd.headers.get('x-comfy-error-type')).toBe('model_not_found');
  });
});

describe('router credentials', () => {
  it('requires a bearer on every route', async () => {
    for (const path of ['/v1/models', '/v1/models/dev/echo', '/v1/models/dev/echo/openapi.json']) {
      const none = await call(big.server.url, path, { token: null });
      expect(none.status).toBe(401);
      expect(none.json.error_type).toBe('unauthorized');
      expect(none.headers.get('x-comfy-error-type')).toBe('unauthorized');
      expect(none.headers.get('x-comfy-request-id')).toMatch(/\S/);
    }
    const wrong = await call(big.server.url, '/v1/models', { token: 'not-a-key' });
    expect(wrong.status).toBe(401);
  });

  it('answers a token not yet switched on with 403 not_enabled', async () => {
    const answer = await call(big.server.url, '/v1/models', { token: 'not-yet' });
    expect(answer.status).toBe(403);
    expect(answer.json.error_type).toBe('not_enabled');
  });

  it('answers the forbidden dev token with 403 forbidden', async () => {
    const answer = await call(big.server.url, '/v1/models', { token: 'wes-dev-forbidden' });
    expect(answer.status).toBe(403);
    expect(answer.json.error_type).toBe('forbidden');
  });

  it('keeps limited- tokens away from the prime provider only', async () => {
    const page = await call(big.server.url, '/v1/models?limit=100', { token: 'limited-1' });
    expect(page.status).toBe(200);
    const prime = page.json.data.find((e: { provider: string }) => e.provider === 'prime');
    for (const path of [`/v1/models/${prime.id}`, `/v1/models/${prime.id}/openapi.json`]) {
      const refused = await call(big.server.url, path, { token: 'limited-1' });
      expect(refused.status).toBe(403);
      expect(refused.json.error_type).toBe('forbidden');
    }
    expect((await call(big.server.url, `/v1/models/${prime.id}`)).status).toBe(200);
    expect((await call(big.server.url, '/v1/models/dev/echo', { token: 'limited-1' })).status).toBe(200);
  });

  it('accepts any bearer on a self-hosted server without a token, but still requires one', async () => {
    const s = await (await import('../helpers/dev-server.js')).startFast({ deployment: 'self-hosted', catalogSize: 20 });
    try {
      expect((await call(s.url, '/v1/models', { token: 'anything' })).status).toBe(200);
      expect((await call(s.url, '/v1/models', { token: null })).status).toBe(401);
    } finally {
      await s.close();
    }
  });
});
