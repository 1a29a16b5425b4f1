// POST /v1/models/{provider}/{model}: every outcome the dev router can produce, with its headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelsState, setModelsDeadline } from '../../src/dev-server/models/index.js';
import { encodeGradientPng } from '../../src/dev-server/models/stock/png.js';
import { useDevServer } from '../helpers/dev-server.js';
import { until } from '../helpers/until.js';
import { call, run, type ModelsAnswer } from './models-http.js';

const TOKENS = ['t-conc', 't-spend', 't-spend2', 't-meter', 't-flaky', 't-idem', 'broke-1'];
const holder = useDevServer({ catalogSize: 30, routerTokens: TOKENS, routerLimits: { inFlight: 2, spendCents: 500 } });
const DEADLINE_MS = 300;

beforeAll(() => setModelsDeadline(holder.server.state, DEADLINE_MS));

function expectError(answer: ModelsAnswer, status: number, type: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('x-comfy-error-type')).toBe(type);
  expect(answer.headers.get('x-comfy-request-id')).toMatch(/^\S+$/);
  if (status !== 422) expect(answer.json).toEqual({ detail: expect.any(String), error_type: type });
}

const base = () => holder.server.url;
const pngBase64 = (w: number, h: number) => encodeGradientPng(w, h, 1).toString('base64');

describe('dev/echo', () => {
  it('answers the request bytes unchanged: spacing, key order and unicode', async () => {
    const body = '{ "z" : 1,\n  "a": ["é", "\\u00e9", "😀"], "n": 1.50 }';
    const answer = await run(base(), 'dev/echo', body);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(body);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('x-comfy-request-id')).toMatch(/\S/);
  });

  it('echoes 5 MB unchanged', async () => {
    // How fast is `npm run bench`'s business; a timed test only fails on a busy machine.
    const body = JSON.stringify({ blob: 'x'.repeat(5 * 1024 * 1024) });
    const answer = await run(base(), 'dev/echo', body);
    expect(answer.status).toBe(200);
    expect(answer.text.length).toBe(body.length);
    expect(answer.text === body).toBe(true);
  });

  it('refuses malformed JSON, a non-object body and a non-JSON content type', async () => {
    const malformed = await run(base(), 'dev/echo', '{"a":');
    expectError(malformed, 422, 'invalid_input');
    expect(malformed.json.detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
    const list = await run(base(), 'dev/echo', '[1,2]');
    expectError(list, 422, 'invalid_input');
    expect(list.json.detail[0]).toMatchObject({ type: 'model_attributes_type', input: [1, 2] });
    const text = await call(base(), '/v1/models/dev/echo', { body: 'hi', headers: { 'content-type': 'text/plain' } });
    expectError(text, 415, 'invalid_input');
  });

  it('answers other methods with 405', async () => {
    const put = await call(base(), '/v1/models/dev/echo', { method: 'PUT', body: {} });
    expectError(put, 405, 'invalid_input');
    expect(put.headers.get('allow')).toBe('GET, POST');
  });
});

describe('dev/upscale (validation)', () => {
  it('lists every problem at once, with loc, msg, type, ctx and input, provider types included', async () => {
    const answer = await run(base(), 'dev/upscale', {
      image: pngBase64(16, 16),
      scale: 3,
      creativity: 1.5,
      tags: ['ok', ''],
      callback_url: 'not a url',
      colour: 'red',
    });
    expectError(answer, 422, 'invalid_input');
    const byType = Object.fromEntries(answer.json.detail.map((d: { type: string }) => [d.type, d]));
    expect(Object.keys(byType).sort()).toEqual(['enum', 'extra_forbidden', 'image_too_small', 'less_than_equal', 'string_too_short', 'url_parsing']);
    expect(byType.image_too_small).toMatchObject({ loc: ['image'], ctx: { min_width: 64, min_height: 64, width: 16, height: 16 } });
    expect(byType.less_than_equal).toEqual({ loc: ['creativity'], msg: 'Input should be less than or equal to 1', type: 'less_than_equal', ctx: { le: 1 }, input: 1.5 });
    expect(byType.string_too_short.loc).toEqual(['tags', 1]);
    expect(byType.enum).toMatchObject({ loc: ['scale'], input: 3 });
    expect(byType.extra_forbidden).toMatchObject({ loc: ['colour'], input: 'red' });
  });

  it('reports a missing required field and an undecodable image', async () => {
    const missing = await run(base(), 'dev/upscale', {});
    expect(missing.json.detail).toEqual([{ loc: ['image'], msg: 'Field required', type: 'missing' }]);
    const notPng = await run(base(), 'dev/upscale', { image: Buffer.from('hello').toString('base64') });
    expectError(notPng, 422, 'invalid_input');
    expect(notPng.json.detail).toEqual([expect.objectContaining({ loc: ['image'], type: 'image_decode_error' })]);
  });

  it('runs a valid input', async () => {
    const answer = await run(base(), 'dev/upscale', { image: `data:image/png;base64,${pngBase64(64, 80)}`, scale: 4, tags: ['a'] });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ width: 256, height: 320, scale: 4, output_format: 'png', tags: ['a'] });
  });
});

describe('dev/image', () => {
  it('links to PNGs on the signed listener that download without credentials', async () => {
    // Drawing two PNGs can pass this file's short router deadline on a loaded machine: not what is tested here.
    setModelsDeadline(holder.server.state, 10_000);
    const answer = await run(base(), 'dev/image', { prompt: 'a red fox', width: 64, height: 72, num_images: 2 }).finally(() => setModelsDeadline(holder.server.state, DEADLINE_MS));
    expect(answer.status).toBe(200);
    expect(answer.json.images).toHaveLength(2);
    const url = answer.json.images[0].url as string;
    expect(url.startsWith(holder.server.signedOrigin)).toBe(true);
    const file = await fetch(url);
    expect(file.status).toBe(200);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(bytes.readUInt32BE(16)).toBe(64);
    const withAuth = await fetch(url, { headers: { authorization: 'Bearer wes-dev-key' } });
    expect(withAuth.status).toBe(400);
  });
});

describe('dev/slow (router deadline and idempotency)', () => {
  it('answers 504 deadline_exceeded with Retry-After when keyed, and the retry with the key collects the result', async () => {
    const body = { prompt: 'wait', duration_ms: DEADLINE_MS + 200 };
    const first = await run(base(), 'dev/slow', body, { key: 'collect-1', token: 't-idem' });
    expectError(first, 504, 'deadline_exceeded');
    expect(first.headers.get('retry-after')).toBe('1');
    const second = await run(base(), 'dev/slow', body, { key: 'collect-1', token: 't-idem' });
    expect(second.status).toBe(200);
    expect(second.json).toMatchObject({ prompt: 'wait', duration_ms: DEADLINE_MS + 200 });
    const third = await run(base(), 'dev/slow', body, { key: 'collect-1', token: 't-idem' });
    expect(third.text).toBe(second.text); // the kept result, not a new generation
  });

  it('answers 504 without Retry-After when the call has no key', async () => {
    const answer = await run(base(), 'dev/slow', { duration_ms: DEADLINE_MS + 100 });
    expectError(answer, 504, 'deadline_exceeded');
    expect(answer.headers.get('retry-after')).toBeNull();
  });

  it('refuses a key reused with another body', async () => {
    await run(base(), 'dev/slow', { duration_ms: 0 }, { key: 'reuse-1', token: 't-idem' });
    const other = await run(base(), 'dev/slow', { duration_ms: 1 }, { key: 'reuse-1', token: 't-idem' });
    expectError(other, 422, 'invalid_input');
    expect(other.json.detail[0]).toMatchObject({ loc: ['header', 'Idempotency-Key'], type: 'idempotency_key_reuse' });
  });
});

describe('per-credential limits', () => {
  // Calls held in flight long enough for the next one to arrive under any load (the router's
  // deadline is raised above it meanwhile), and the moment they are in flight read from the server.
  const HELD_MS = 1000;
  const usageOf = (token: string) => modelsState(holder.server.state).usage.get(token) ?? { inFlight: 0, committedCents: 0 };
  beforeAll(() => setModelsDeadline(holder.server.state, 10_000));
  afterAll(() => setModelsDeadline(holder.server.state, DEADLINE_MS));

  it('refuses a call beyond the in-flight count with 429 concurrency_limit_exceeded, no spend headers', async () => {
    const slow = { duration_ms: HELD_MS, cost_cents: 1 };
    const held = [run(base(), 'dev/slow', slow, { token: 't-conc' }), run(base(), 'dev/slow', slow, { token: 't-conc' })];
    await until(() => usageOf('t-conc').inFlight === 2, 'both calls to be in flight');
    const third = await run(base(), 'dev/slow', slow, { token: 't-conc' });
    expectError(third, 429, 'concurrency_limit_exceeded');
    expect(third.json.detail).toMatch(/concurrent calls/i);
    expect(third.headers.get('x-committed-spend-limit')).toBeNull();
    expect((await Promise.all(held)).map((a) => a.status)).toEqual([200, 200]);
    expect((await run(base(), 'dev/slow', { duration_ms: 0 }, { token: 't-conc' })).status).toBe(200);
  });

  it('refuses a call beyond the committed spend with the X-Committed-Spend-* headers', async () => {
    const held = run(base(), 'dev/slow', { duration_ms: HELD_MS, cost_cents: 300 }, { token: 't-spend' });
    await until(() => usageOf('t-spend').committedCents === 300, 'the first call to be in flight');
    const over = await run(base(), 'dev/slow', { duration_ms: 0, cost_cents: 250 }, { token: 't-spend' });
    expectError(over, 429, 'concurrency_limit_exceeded');
    expect(over.json.detail).toMatch(/committed spend/i);
    expect(over.headers.get('x-committed-spend-limit')).toBe('500');
    expect(over.headers.get('x-committed-spend-current')).toBe('300');
    expect(over.headers.get('x-committed-spend-remaining')).toBe('200');
    expect((await held).status).toBe(200);
  });

  it('refuses a single call that costs more than the cap, with nothing committed', async () => {
    const over = await run(base(), 'dev/slow', { duration_ms: 0, cost_cents: 900 }, { token: 't-spend2' });
    expectError(over, 429, 'concurrency_limit_exceeded');
    expect([over.headers.get('x-committed-spend-limit'), over.headers.get('x-committed-spend-current'), over.headers.get('x-committed-spend-remaining')]).toEqual(['500', '0', '500']);
  });

  it('answers 429 rate_limited with Retry-After once the window allowance is spent', async () => {
    const input = { prompt: 'count me' };
    expect((await run(base(), 'dev/metered', input, { token: 't-meter' })).status).toBe(200);
    expect((await run(base(), 'dev/metered', input, { token: 't-meter' })).status).toBe(200);
    const limited = await run(base(), 'dev/metered', input, { token: 't-meter' });
    expectError(limited, 429, 'rate_limited');
    expect(limited.json.detail).toMatch(/window/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await run(base(), 'dev/metered', input)).status).toBe(200); // another credential has its own window
  });
});

describe('provider and service outcomes', () => {
  it('refuses a blocked prompt with content_policy_violation, deterministically', async () => {
    for (let i = 0; i < 2; i++) {
      const refused = await run(base(), 'dev/moderated', { prompt: 'a scene of Violence' });
      expectError(refused, 400, 'content_policy_violation');
    }
    const fine = await run(base(), 'dev/moderated', { prompt: 'a quiet lake at dawn', max_tokens: 3 });
    expect(fine.status).toBe(200);
    expect(fine.json.output_text).toBe('dawn at lake');
  });

  it('reports a failing provider as provider_error', async () => {
    expectError(await run(base(), 'dev/broken', { prompt: 'anything' }), 502, 'provider_error');
  });

  it('answers provider_timeout without Retry-After', async () => {
    const answer = await run(base(), 'dev/timeout', { prompt: 'anything' });
    expectError(answer, 504, 'provider_timeout');
    expect(answer.headers.get('retry-after')).toBeNull();
  });

  it('answers service_unavailable with Retry-After until it clears for the same request', async () => {
    const input = { prompt: 'try again', unavailable_times: 2 };
    for (let i = 0; i < 2; i++) {
      const down = await run(base(), 'dev/flaky', input, { token: 't-flaky', key: 'flaky-1' });
      expectError(down, 503, 'service_unavailable');
      expect(down.headers.get('retry-after')).toBe('1');
    }
    const up = await run(base(), 'dev/flaky', input, { token: 't-flaky', key: 'flaky-1' });
    expect(up.status).toBe(200);
    expect(up.json.attempts).toBe(3);
  });

  it('answers insufficient_credits for a broke workspace on paid models only', async () => {
    expectError(await run(base(), 'dev/moderated', { prompt: 'hello' }, { token: 'broke-1' }), 402, 'insufficient_credits');
    expect((await run(base(), 'dev/echo', { free: true }, { token: 'broke-1' })).status).toBe(200);
  });

  it('runs generated catalog models too (an id listed is an id accepted)', async () => {
    const page = await call(base(), '/v1/models?limit=30');
    const text = page.json.data.find((e: { provider: string }) => e.provider === 'acme');
    const answer = await run(base(), text.id, { prompt: 'one two three' });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ model: text.id, output_text: 'three two one' });
  });
});
