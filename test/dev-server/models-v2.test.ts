// The published generation of the dev router (/v2/models...): the same catalog and schemas as /v1,
// and what the published router adds to a run: the workspace keyspace with 409 collect and 409 key
// refusals, Idempotent-Replayed on answers from a key's record, the price and spend figures on a
// success, a partner's own media type (nosniff), and the provider's reason for refusing a request.
// /v1 keeps the interface's behaviour beside it.
import { beforeAll, describe, expect, it } from 'vitest';
import { setModelsDeadline } from '../../src/dev-server/models/index.js';
import { useDevServer } from '../helpers/dev-server.js';
import { until } from '../helpers/until.js';
import { call, type ModelsAnswer } from './models-http.js';

const TOKENS = ['t-v2-a', 't-v2-b', 't-v2-c', 't-v2-d'];
const holder = useDevServer({ catalogSize: 30, routerTokens: TOKENS, routerLimits: { inFlight: 4, spendCents: 500 }, maxBodyBytes: 64 * 1024 });
const DEADLINE_MS = 300;
beforeAll(() => setModelsDeadline(holder.server.state, DEADLINE_MS));
const base = () => holder.server.url;

function runV2(model: string, body: string | object, init: { token?: string; key?: string } = {}): Promise<ModelsAnswer> {
  return call(base(), `/v2/models/${model}`, { token: init.token, body, headers: init.key ? { 'idempotency-key': init.key } : {} });
}

describe('the catalog under /v2/models', () => {
  it('lists, shows and describes the same models, each document and schema URL naming the /v2 routes', async () => {
    const v1 = await call(base(), '/v1/models?limit=100');
    const v2 = await call(base(), '/v2/models?limit=100');
    expect(v2.status).toBe(200);
    expect(v2.json.data.map((m: { id: string }) => m.id)).toEqual(v1.json.data.map((m: { id: string }) => m.id));
    const detail = await call(base(), '/v2/models/dev/speech');
    expect(detail.json.input_schema_url).toMatch(/^https:\/\/[^/]+\/v2\/models\/dev\/speech\/openapi\.json$/);
    const doc = await call(base(), '/v2/models/dev/speech/openapi.json');
    expect(Object.keys(doc.json.paths)).toEqual(['/v2/models/dev/speech']);
    expect(doc.json.paths['/v2/models/dev/speech'].post.responses['200'].content).toEqual({ 'audio/wav': { schema: { type: 'string', format: 'binary' } } });
    const v1doc = await call(base(), '/v1/models/dev/speech/openapi.json');
    expect(Object.keys(v1doc.json.paths)).toEqual(['/v1/models/dev/speech']);
    expect(doc.headers.get('etag')).not.toBe(v1doc.headers.get('etag'));
  });

  it('answers an unknown route under /v2/models in the router error shape', async () => {
    const answer = await call(base(), '/v2/models/dev/echo/nope');
    expect(answer.status).toBe(404);
    expect(answer.headers.get('x-comfy-error-type')).toBe('model_not_found');
    expect(answer.json.detail).toMatch(/requests/);
  });
});

describe('a run on /v2', () => {
  it('a success carries nosniff, the price and the committed-spend figures; /v1 carries none of them', async () => {
    const answer = await runV2('dev/slow', { duration_ms: 5, cost_cents: 7 });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('x-comfy-credits-used')).toBe('7');
    expect(answer.headers.get('x-committed-spend-limit')).toBe('500');
    expect(answer.headers.get('x-committed-spend-current')).toBe('7');
    expect(answer.headers.get('x-committed-spend-remaining')).toBe('493');
    expect(answer.headers.get('idempotent-replayed')).toBeNull();
    const v1 = await call(base(), '/v1/models/dev/slow', { body: { duration_ms: 5, cost_cents: 7 } });
    expect(v1.status).toBe(200);
    for (const header of ['x-content-type-options', 'x-comfy-credits-used', 'x-committed-spend-limit']) expect(v1.headers.get(header)).toBeNull();
  });

  it('passes the partner bytes through under their own media type on /v2, and as JSON on /v1', async () => {
    const res = await fetch(`${base()}/v2/models/dev/speech`, { method: 'POST', headers: { authorization: 'Bearer wes-dev-key', 'content-type': 'application/json' }, body: '{"text":"hi"}' });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(bytes.subarray(0, 4).toString()).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString()).toBe('WAVE');
    const v1 = await call(base(), '/v1/models/dev/speech', { body: { text: 'hi' } });
    expect(v1.headers.get('content-type')).toMatch(/^application\/json/);
    expect(v1.json.audio).toMatch(/^data:audio\/wav;base64,UklGR/);
  });

  it("a provider's refusal of a malformed request carries upstream_detail and its headers on /v2 only", async () => {
    const v2 = await runV2('dev/speech', { text: 'hi', voice: 'bob' });
    expect(v2.status).toBe(400);
    expect(v2.json).toEqual({ detail: expect.any(String), error_type: 'invalid_input', upstream_detail: expect.stringMatching(/unknown voice "bob"/) });
    expect(v2.headers.get('x-comfy-upstream-status')).toBe('400');
    expect(v2.headers.get('x-comfy-upstream-detail')).toBe(v2.json.upstream_detail);
    const v1 = await call(base(), '/v1/models/dev/speech', { body: { text: 'hi', voice: 'bob' } });
    expect(v1.status).toBe(400);
    expect(v1.json).toEqual({ detail: expect.any(String), error_type: 'invalid_input' });
    expect(v1.headers.get('x-comfy-upstream-detail')).toBeNull();
  });

  it('a body over the limit is 413 invalid_input in the router shape', async () => {
    const answer = await runV2('dev/echo', { blob: 'x'.repeat(70 * 1024) });
    expect(answer.status).toBe(413);
    expect(answer.headers.get('x-comfy-error-type')).toBe('invalid_input');
  });
});

describe('Idempotency-Key on /v2', () => {
  it('a same-key call while another is being answered is 409 concurrency_limit_exceeded with Retry-After; re-sent, it collects the one generation, marked replayed', async () => {
    setModelsDeadline(holder.server.state, 10_000); // the first call is held, not cut at the deadline
    const before = holder.server.state.requestCounts.get('POST /v2/models/dev/slow') ?? 0;
    const first = runV2('dev/slow', { duration_ms: 1000 }, { token: 't-v2-a', key: 'k-inflight' }).finally(() => setModelsDeadline(holder.server.state, DEADLINE_MS));
    await until(() => (holder.server.state.requestCounts.get('POST /v2/models/dev/slow') ?? 0) > before, 'the first call');
    const second = await runV2('dev/slow', { duration_ms: 1000 }, { token: 't-v2-a', key: 'k-inflight' });
    expect(second.status).toBe(409);
    expect(second.headers.get('x-comfy-error-type')).toBe('concurrency_limit_exceeded');
    expect(second.headers.get('retry-after')).toBe('1');
    const original = await first;
    expect(original.status).toBe(200);
    const again = await runV2('dev/slow', { duration_ms: 1000 }, { token: 't-v2-a', key: 'k-inflight' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json.took_ms).toBe(original.json.took_ms); // the same generation, not a second one
    expect(again.headers.get('x-comfy-credits-used')).toBe(original.headers.get('x-comfy-credits-used'));
  });

  it('after a 504 with Retry-After, the same key collects the generation still running, marked replayed', async () => {
    const cut = await runV2('dev/slow', { duration_ms: DEADLINE_MS + 150 }, { token: 't-v2-b', key: 'k-deadline' });
    expect(cut.status).toBe(504);
    expect(cut.headers.get('retry-after')).toBe('1');
    const collected = await runV2('dev/slow', { duration_ms: DEADLINE_MS + 150 }, { token: 't-v2-b', key: 'k-deadline' });
    expect(collected.status).toBe(200);
    expect(collected.headers.get('idempotent-replayed')).toBe('true');
  });

  it('another request under a used key is 409 invalid_input, without Retry-After; on /v1 it stays the 422 of the interface', async () => {
    expect((await runV2('dev/echo', { a: 1 }, { token: 't-v2-c', key: 'k-other' })).status).toBe(200);
    const other = await runV2('dev/echo', { a: 2 }, { token: 't-v2-c', key: 'k-other' });
    expect(other.status).toBe(409);
    expect(other.headers.get('x-comfy-error-type')).toBe('invalid_input');
    expect(other.headers.get('retry-after')).toBeNull();
    // The key belongs to the workspace, not the model: another model under it is another request.
    const elsewhere = await runV2('dev/slow', { duration_ms: 1 }, { token: 't-v2-c', key: 'k-other' });
    expect(elsewhere.status).toBe(409);
    const v1a = await call(base(), '/v1/models/dev/echo', { token: 't-v2-c', body: { a: 1 }, headers: { 'idempotency-key': 'k-v1' } });
    const v1b = await call(base(), '/v1/models/dev/echo', { token: 't-v2-c', body: { a: 2 }, headers: { 'idempotency-key': 'k-v1' } });
    expect(v1a.status).toBe(200);
    expect(v1b.status).toBe(422);
    expect(v1b.json.detail[0].type).toBe('idempotency_key_reuse');
  });

  it("a provider's answer is recorded and replayed marked; a refusal before dispatch releases the key", async () => {
    const refused = await runV2('dev/moderated', { prompt: 'violence' }, { token: 't-v2-d', key: 'k-policy' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('idempotent-replayed')).toBeNull();
    const replay = await runV2('dev/moderated', { prompt: 'violence' }, { token: 't-v2-d', key: 'k-policy' });
    expect(replay.status).toBe(400);
    expect(replay.headers.get('x-comfy-error-type')).toBe('content_policy_violation');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const invalid = await runV2('dev/slow', { duration_ms: -1 }, { token: 't-v2-d', key: 'k-released' });
    expect(invalid.status).toBe(422);
    const fixed = await runV2('dev/slow', { duration_ms: 1 }, { token: 't-v2-d', key: 'k-released' });
    expect(fixed.status).toBe(200);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });
});
