// The per-model OpenAPI document: shape, strong ETag, conditional GETs (weak comparison, `*`),
// and that the server validates calls against this very document.
import { describe, expect, it } from 'vitest';
import { compileInputValidator } from '../../src/protocol/model-input-validation.js';
import { deref, findRequestBodySchema } from '../../src/protocol/openapi-document.js';
import { useDevServer } from '../helpers/dev-server.js';
import { call } from './models-http.js';

const holder = useDevServer({ catalogSize: 40 });
const SCHEMA = '/v1/models/dev/upscale/openapi.json';

describe('GET /v1/models/{provider}/{model}/openapi.json', () => {
  it('serves an OpenAPI 3.1 document whose body schema is reached through $refs', async () => {
    const answer = await call(holder.server.url, SCHEMA);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = answer.json;
    expect(doc.openapi).toBe('3.1.0');
    const body = findRequestBodySchema(doc);
    expect(body).toEqual({ $ref: '#/components/schemas/Input' });
    const input = deref(doc, body) as { properties: Record<string, any>; required: string[] };
    expect(input.required).toEqual(['image']);
    const types = new Set(Object.values(input.properties).map((p) => (deref(doc, p) as { type: string }).type));
    expect([...types].sort()).toEqual(['array', 'boolean', 'integer', 'number', 'string']);
    expect(input.properties.image).toMatchObject({ type: 'string', contentEncoding: 'base64' });
    expect(deref(doc, input.properties.scale)).toMatchObject({ enum: [2, 4], default: 2 });
    expect(input.properties.creativity).toMatchObject({ minimum: 0, maximum: 1 });
    expect(input.properties.callback_url).toMatchObject({ format: 'uri' });
  });

  it('sends a strong ETag and private, must-revalidate caching', async () => {
    const a = await call(holder.server.url, SCHEMA);
    const b = await call(holder.server.url, SCHEMA);
    const etag = a.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(b.headers.get('etag')).toBe(etag);
    expect(b.text).toBe(a.text);
    expect(a.headers.get('cache-control')).toBe('private, must-revalidate');
    const other = await call(holder.server.url, '/v1/models/dev/echo/openapi.json');
    expect(other.headers.get('etag')).not.toBe(etag);
  });

  it.each([
    ['the same tag', (tag: string) => tag],
    ['its weak form', (tag: string) => `W/${tag}`],
    ['a list holding it', (tag: string) => `"other", ${tag}`],
    ['*', () => '*'],
  ])('answers If-None-Match with %s by 304 and the same headers', async (_name, header) => {
    const first = await call(holder.server.url, SCHEMA);
    const etag = first.headers.get('etag')!;
    const again = await call(holder.server.url, SCHEMA, { headers: { 'if-none-match': header(etag) } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('private, must-revalidate');
    expect(again.headers.get('x-comfy-request-id')).toMatch(/\S/);
  });

  it('answers a non-matching If-None-Match with the full document', async () => {
    const answer = await call(holder.server.url, SCHEMA, { headers: { 'if-none-match': '"stale", W/"older"' } });
    expect(answer.status).toBe(200);
    expect(answer.json.openapi).toBe('3.1.0');
  });

  it('is the document the server validates calls against', async () => {
    const doc = (await call(holder.server.url, SCHEMA)).json;
    const bad = { scale: 3, creativity: 2, nonsense: true };
    const local = compileInputValidator(doc)(bad);
    const remote = await call(holder.server.url, '/v1/models/dev/upscale', { body: bad });
    expect(remote.status).toBe(422);
    expect(remote.json.detail).toEqual(local);
  });

  it('exists for every catalog model, even those without input_schema_url', async () => {
    const page = await call(holder.server.url, '/v1/models?limit=40');
    for (const entry of page.json.data) {
      const answer = await call(holder.server.url, `/v1/models/${entry.id}/openapi.json`);
      expect(answer.status).toBe(200);
      expect(() => compileInputValidator(answer.json)).not.toThrow();
    }
  });
});
