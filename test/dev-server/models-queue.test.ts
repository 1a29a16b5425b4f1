// Queued delivery of the dev router (/v2/models/{provider}/{model}/requests...): the handle of a
// submit, the status and result reads (202 while not done, with Retry-After), the output as the run
// route gives it, cancels, the queue timeout, the backlog bound, who may read a request, the
// retention, and the Idempotency-Key of a submit.
import { describe, expect, it } from 'vitest';
import { configureQueue } from '../../src/dev-server/models/index.js';
import { startFast, useDevServer } from '../helpers/dev-server.js';
import { until } from '../helpers/until.js';
import { call, type ModelsAnswer } from './models-http.js';

const TOKENS = ['t-q-a', 't-q-b', 't-q-c', 't-q-d', 't-q-e', 'broke-q'];
const holder = useDevServer({ catalogSize: 30, routerTokens: TOKENS });
const base = () => holder.server.url;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function submit(model: string, body: object, init: { token?: string; key?: string } = {}): Promise<ModelsAnswer> {
  return call(base(), `/v2/models/${model}/requests`, { token: init.token, body, headers: init.key ? { 'idempotency-key': init.key } : {} });
}
const read = (model: string, id: string, tail = '', token?: string) => call(base(), `/v2/models/${model}/requests/${id}${tail}`, { token });
const cancel = (model: string, id: string, token?: string) => call(base(), `/v2/models/${model}/requests/${id}/cancel`, { token, method: 'PUT' });

// The tests use requests, tokens and servers of their own: they run side by side, each mostly waiting on a queue.
describe.concurrent('submit and collect', () => {
  it('answers 201 with the handle and its three URLs; the result is 202 with the state until done, then the output', async () => {
    const submitted = await submit('dev/slow', { prompt: 'q', duration_ms: 1500 }, { token: 't-q-a' });
    expect(submitted.status).toBe(201);
    const handle = submitted.json;
    expect(handle.request_id).toMatch(UUID);
    expect(['IN_QUEUE', 'IN_PROGRESS']).toContain(handle.status);
    expect(handle.status_url).toBe(`${base()}/v2/models/dev/slow/requests/${handle.request_id}/status`);
    expect(handle.response_url).toBe(`${base()}/v2/models/dev/slow/requests/${handle.request_id}`);
    expect(handle.cancel_url).toBe(`${base()}/v2/models/dev/slow/requests/${handle.request_id}/cancel`);
    const pending = await read('dev/slow', handle.request_id, '', 't-q-a');
    expect(pending.status).toBe(202);
    expect(pending.headers.get('retry-after')).toBe('1');
    expect(pending.json).toMatchObject({ request_id: handle.request_id, status: 'IN_PROGRESS' });
    const status = await read('dev/slow', handle.request_id, '/status', 't-q-a');
    expect(status.status).toBe(200);
    expect(status.headers.get('retry-after')).toBe('1');
    await until(async () => (await read('dev/slow', handle.request_id, '/status', 't-q-a')).json.status === 'COMPLETED');
    const done = await read('dev/slow', handle.request_id, '/status', 't-q-a');
    expect(done.headers.get('retry-after')).toBeNull();
    expect(done.json.error_type).toBeUndefined();
    const result = await read('dev/slow', handle.request_id, '', 't-q-a');
    expect(result.status).toBe(200);
    expect(result.headers.get('x-content-type-options')).toBe('nosniff');
    expect(result.json).toMatchObject({ prompt: 'q', duration_ms: 1500 });
  });

  it('a binary output is collected under its own media type', async () => {
    const { json } = await submit('dev/speech', { text: 'hello' });
    await until(async () => (await read('dev/speech', json.request_id, '/status')).json.status === 'COMPLETED');
    const res = await fetch(`${base()}/v2/models/dev/speech/requests/${json.request_id}`, { headers: { authorization: 'Bearer wes-dev-key' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await res.arrayBuffer()).subarray(0, 4).toString()).toBe('RIFF');
  });

  it('checks the input before queueing (422) and the credits (402); an unknown model is 404 model_not_found', async () => {
    const bad = await submit('dev/slow', { duration_ms: -5 });
    expect(bad.status).toBe(422);
    expect(bad.json.detail[0].loc).toEqual(['duration_ms']);
    const broke = await submit('dev/slow', { duration_ms: 1 }, { token: 'broke-q' });
    expect(broke.status).toBe(402);
    const unknown = await submit('dev/nope', {});
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-comfy-error-type')).toBe('model_not_found');
  });

  it("a failed request completes with its error_type, and its result is the run route's failure", async () => {
    const { json } = await submit('dev/broken', { prompt: 'x' });
    await until(async () => (await read('dev/broken', json.request_id, '/status')).json.status === 'COMPLETED');
    expect((await read('dev/broken', json.request_id, '/status')).json.error_type).toBe('provider_error');
    const result = await read('dev/broken', json.request_id);
    expect(result.status).toBe(502);
    expect(result.headers.get('x-comfy-error-type')).toBe('provider_error');
  });
});

describe.concurrent('who may read a request', () => {
  it('another credential, another model or an unknown id is 404 request_not_found', async () => {
    const { json } = await submit('dev/echo', { a: 1 }, { token: 't-q-b' });
    for (const answer of [
      await read('dev/echo', json.request_id, '/status', 't-q-c'),
      await read('dev/slow', json.request_id, '/status', 't-q-b'),
      await read('dev/echo', '00000000-0000-4000-8000-000000000000', '', 't-q-b'),
      await cancel('dev/echo', 'not-a-uuid', 't-q-b'),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.headers.get('x-comfy-error-type')).toBe('request_not_found');
    }
  });
});

describe.concurrent('cancel', () => {
  it('a waiting request is cancelled (202), completes with error_type cancelled, its result is 409 cancelled; a second cancel is 409 ALREADY_COMPLETED', async () => {
    const server = await startFast({ routerTokens: ['t-cancel'] });
    try {
      configureQueue(server.state, { slots: 1 });
      const running = await call(server.url, '/v2/models/dev/slow/requests', { token: 't-cancel', body: { duration_ms: 5000 } });
      const waiting = await call(server.url, '/v2/models/dev/slow/requests', { token: 't-cancel', body: { duration_ms: 5000 } });
      expect(waiting.json).toMatchObject({ status: 'IN_QUEUE', queue_position: 0 });
      const id = waiting.json.request_id;
      const asked = await call(server.url, `/v2/models/dev/slow/requests/${id}/cancel`, { token: 't-cancel', method: 'PUT' });
      expect(asked.status).toBe(202);
      expect(asked.json).toEqual({ request_id: id, status: 'CANCELLATION_REQUESTED' });
      const status = await call(server.url, `/v2/models/dev/slow/requests/${id}/status`, { token: 't-cancel' });
      expect(status.json).toMatchObject({ status: 'COMPLETED', error_type: 'cancelled' });
      const result = await call(server.url, `/v2/models/dev/slow/requests/${id}`, { token: 't-cancel' });
      expect(result.status).toBe(409);
      expect(result.headers.get('x-comfy-error-type')).toBe('cancelled');
      const again = await call(server.url, `/v2/models/dev/slow/requests/${id}/cancel`, { token: 't-cancel', method: 'PUT' });
      expect(again.status).toBe(409);
      expect(again.json).toEqual({ request_id: id, status: 'ALREADY_COMPLETED' });
      // A running request's cancel ends its run.
      const stop = await call(server.url, `/v2/models/dev/slow/requests/${running.json.request_id}/cancel`, { token: 't-cancel', method: 'PUT' });
      expect(stop.status).toBe(202);
      await until(async () => (await call(server.url, `/v2/models/dev/slow/requests/${running.json.request_id}/status`, { token: 't-cancel' })).json.error_type === 'cancelled');
    } finally {
      await server.close();
    }
  });
});

describe.concurrent('the queue bounds', () => {
  it('a request that waits past the queue timeout completes with queue_timeout (504 on the result); a full backlog is 429 queue_backlog_full', async () => {
    const server = await startFast({ routerTokens: ['t-bounds'] });
    try {
      // The timeout outlasts the four posts on a loaded machine (at 100 ms a waiting request timed out and freed the backlog before the fourth).
      configureQueue(server.state, { slots: 1, backlog: 2, timeoutMs: 2000 });
      const post = () => call(server.url, '/v2/models/dev/slow/requests', { token: 't-bounds', body: { duration_ms: 5000 } });
      await post(); // runs (until the server closes), so the others can only wait
      const first = await post();
      await post();
      const refused = await post();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-comfy-error-type')).toBe('queue_backlog_full');
      await until(async () => (await call(server.url, `/v2/models/dev/slow/requests/${first.json.request_id}/status`, { token: 't-bounds' })).json.error_type === 'queue_timeout');
      const result = await call(server.url, `/v2/models/dev/slow/requests/${first.json.request_id}`, { token: 't-bounds' });
      expect(result.status).toBe(504);
      expect(result.headers.get('x-comfy-error-type')).toBe('queue_timeout');
    } finally {
      await server.close();
    }
  });

  it('a completed request past the retention answers 410', async () => {
    const server = await startFast({ routerTokens: ['t-gone'] });
    try {
      configureQueue(server.state, { retentionMs: 50 });
      const { json } = await call(server.url, '/v2/models/dev/echo/requests', { token: 't-gone', body: { a: 1 } });
      await until(async () => (await call(server.url, `/v2/models/dev/echo/requests/${json.request_id}`, { token: 't-gone' })).status === 410);
      const gone = await call(server.url, `/v2/models/dev/echo/requests/${json.request_id}/status`, { token: 't-gone' });
      expect(gone.status).toBe(410);
      expect(gone.headers.get('x-comfy-error-type')).toBe('request_not_found');
    } finally {
      await server.close();
    }
  });
});

describe.concurrent('Idempotency-Key on a submit', () => {
  it('the same key and request hand back the same request, marked replayed; another request under it is 409 invalid_input', async () => {
    const first = await submit('dev/echo', { a: 1 }, { token: 't-q-d', key: 'k-submit' });
    const again = await submit('dev/echo', { a: 1 }, { token: 't-q-d', key: 'k-submit' });
    expect(again.status).toBe(201);
    expect(again.json.request_id).toBe(first.json.request_id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await submit('dev/echo', { a: 2 }, { token: 't-q-d', key: 'k-submit' });
    expect(other.status).toBe(409);
    expect(other.headers.get('x-comfy-error-type')).toBe('invalid_input');
    // The keyspace is shared with the run route: a submit's key is taken for a synchronous run too.
    const run = await call(base(), '/v2/models/dev/echo', { token: 't-q-d', body: { a: 1 }, headers: { 'idempotency-key': 'k-submit' } });
    expect(run.status).toBe(409);
  });

  it('is refused on /v1, which has no queue (404 in the router shape)', async () => {
    const answer = await call(base(), '/v1/models/dev/echo/requests', { token: 't-q-e', body: {} });
    expect(answer.status).toBe(404);
    expect(answer.headers.get('x-comfy-error-type')).toBe('model_not_found');
  });
});
