// The HTTP layer driven through its dispatcher seam (HttpClientOptions.dispatcher) with what real
// servers answered (../shared/observations/recordings: comfy-api-proxy on 8193, ComfyUI 0.3.64 on
// 8189), no socket opened: error decoding and exit codes, typed reads, and which failures are
// sent again and which end in doubt. The loopback tests (client.test.ts) stay beside these.
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/client.js';
import { composeHttp } from '../../src/compose/http.js';
import { JobsClient } from '../../src/clients/jobs/client.js';
import { postJob } from '../../src/clients/jobs/keyed-submit.js';
import { ApiError, ExitCode, NetworkError, neverReachedServer } from '../../src/errors.js';
import { mayHaveTakenEffect } from '../../src/features/keyed/verdict.js';
import { ReplayDispatcher, edgeCase, engineExchange, namedExchange, socketError, type RecordedExchange } from '../helpers/replay-dispatcher.js';

const PROXY = 'http://127.0.0.1:8193';
const ENGINE = 'http://127.0.0.1:8189';

const replays: ReplayDispatcher[] = [];
afterEach(async () => {
  await Promise.all(replays.splice(0).map((r) => r.close()));
});

function replay(): ReplayDispatcher {
  const r = new ReplayDispatcher();
  replays.push(r);
  return r;
}

function client(r: ReplayDispatcher, baseUrl = PROXY): HttpClient {
  return new HttpClient({ baseUrl, routerUrl: baseUrl, retries: 3, dispatcher: r.agent });
}

/** The recorded request's JSON body, sent again as the client would. */
function recordedJson(e: RecordedExchange): unknown {
  return e.request.body;
}

describe('error answers, decoded from the recordings', () => {
  it('a job API 404 envelope: not_found, exit code 5, the server message, asked once', async () => {
    const r = replay().answer(edgeCase('GET /api/v2/jobs/<unknown uuid>'));
    const err = await new JobsClient(client(r)).get('001c34a8-9202-44bd-a9ed-dc16a3bac0a1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, code: 'not_found', exitCode: ExitCode.NOT_FOUND, origin: 'jobs', message: 'No job 001c34a8-9202-44bd-a9ed-dc16a3bac0a1.' });
    expect(r.calls().map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/v2/jobs/001c34a8-9202-44bd-a9ed-dc16a3bac0a1']);
    r.allAsked();
  });

  it('a 422 validation answer: invalid_workflow with its node errors, exit code 6, never sent again', async () => {
    const e = edgeCase('submit: link to a missing node ("9")');
    const r = replay().answer(e);
    const err = (await client(r).json({ family: 'jobs', url: '/api/v2/jobs', json: recordedJson(e) }).catch((x: unknown) => x)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 422, code: 'invalid_workflow', exitCode: ExitCode.REFUSED, message: 'Prompt outputs failed validation' });
    const nodeErrors = (err.details as { node_errors: Record<string, { class_type: string; dependent_outputs: string[] }> }).node_errors;
    expect(nodeErrors['2']).toMatchObject({ class_type: 'ImageInvert', dependent_outputs: ['3'] });
    expect(mayHaveTakenEffect(err)).toBe(false);
    expect(r.calls()).toHaveLength(1);
    expect(JSON.parse(r.calls()[0]!.body!)).toEqual(e.request.body);
  });

  it('a key used twice: the recorded 422 idempotency_key_reuse, the key sent once, no retry', async () => {
    const e = namedExchange('v2-proxy-lifecycle.json', 'submit_same_key_again');
    const r = replay().answer(e);
    const key = e.request.headers['Idempotency-Key']!;
    const err = (await postJob(new JobsClient(client(r)), recordedJson(e) as never, key).catch((x: unknown) => x)) as ApiError;
    expect(err).toMatchObject({ status: 422, code: 'idempotency_key_reuse', exitCode: ExitCode.REFUSED });
    expect(r.calls().map((c) => c.headers['idempotency-key'])).toEqual([key]);
  });

  it('the engine refusing a prompt (400 invalid_prompt) and its empty 404 for an unknown route, decoded as the legacy family', async () => {
    const refused = engineExchange('0.3.64', 'prompt_unknown_class');
    const plain404 = engineExchange('0.3.64', 'job_status_random_uuid');
    const r = replay().answer(refused).answer(plain404);
    const http = client(r, ENGINE);
    const err = (await http.json({ family: 'legacy', url: '/api/prompt', json: recordedJson(refused) }).catch((x: unknown) => x)) as ApiError;
    expect(err).toMatchObject({ status: 400, code: 'invalid_request', exitCode: ExitCode.REFUSED, message: 'Cannot execute because node NoSuchNodeClass does not exist.' });
    const missing = (await http.json({ family: 'legacy', url: new URL(plain404.request.url!).pathname }).catch((x: unknown) => x)) as ApiError;
    expect(missing).toMatchObject({ status: 404, code: 'not_found', exitCode: ExitCode.NOT_FOUND, message: 'HTTP 404 not found' });
    r.allAsked();
  });
});

describe('reads, typed from the recordings', () => {
  it('a succeeded job: its status, its output and the output link resolved on the answering origin', async () => {
    const e = namedExchange('v2-proxy-lifecycle.json', 'get_A_after_success');
    const r = replay().answer(e);
    const { job, from } = await new JobsClient(client(r)).get('ee126221-dc18-4c8b-baec-7fa11dff2c06');
    expect(job).toMatchObject({ id: 'ee126221-dc18-4c8b-baec-7fa11dff2c06', status: 'succeeded' });
    expect(job.outputs).toHaveLength(1);
    expect(job.outputs[0]).toMatchObject({ node_id: '7', name: 'rnd8_00017_.png', content_type: 'image/png' });
    expect(from.href).toBe(e.request.url);
  });

  it('the same job read as chunks (the path downloads take) gives the recorded bytes', async () => {
    const e = namedExchange('v2-proxy-lifecycle.json', 'get_A_after_success');
    const r = replay().answer(e);
    const res = await client(r).buffer({ family: 'jobs', url: new URL(e.request.url!), largeAnswer: true });
    expect(res.body.toString('utf8')).toBe(e.response.body_raw);
  });

  it('an asset record', async () => {
    const e = namedExchange('v2-proxy-lifecycle.json', 'asset_get');
    const r = replay().answer(e);
    const id = new URL(e.request.url!).pathname.split('/').pop()!;
    const { asset } = await new JobsClient(client(r)).getAsset(id);
    const recorded = JSON.parse(e.response.body_raw!) as { id: string; hash: string; size_bytes: number };
    expect(asset).toMatchObject({ id: recorded.id, hash: recorded.hash, size_bytes: recorded.size_bytes });
  });
});

describe('retries and doubt, driven by the dispatcher', () => {
  it('a keyed submit whose connection breaks after sending is not sent again: it ends in doubt', async () => {
    const e = namedExchange('v2-proxy-lifecycle.json', 'submit_with_key');
    const r = replay().fail(e, socketError('ECONNRESET'));
    const key = e.request.headers['Idempotency-Key']!;
    const err = await postJob(new JobsClient(client(r)), recordedJson(e) as never, key).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(NetworkError);
    expect(mayHaveTakenEffect(err)).toBe(true);
    expect(r.calls()).toHaveLength(1);
  });

  it('a keyed submit whose connection was refused is sent again with the same key, and the recorded 201 read', async () => {
    const e = namedExchange('v2-proxy-lifecycle.json', 'submit_with_key');
    const r = replay().fail(e, socketError('ECONNREFUSED')).answer(e);
    const retries: string[] = [];
    const http = new HttpClient({ baseUrl: PROXY, routerUrl: PROXY, retries: 3, dispatcher: r.agent, onRetry: (i) => retries.push(i.cause) });
    const key = e.request.headers['Idempotency-Key']!;
    const { job } = await postJob(new JobsClient(http), recordedJson(e) as never, key);
    expect(job).toMatchObject({ id: 'eafbbce1-e210-4d06-90bd-0187a61b13c9', status: 'queued' });
    expect(retries).toEqual(['connect']);
    expect(r.calls().map((c) => c.headers['idempotency-key'])).toEqual([key, key]);
    r.allAsked();
  });

  it('a keyed submit answered with the recorded 500 is not sent again: in doubt, unlike a refused connection', async () => {
    const e = edgeCase('submit: JSON array body');
    const r = replay().answer(e);
    const err = (await client(r).json({ family: 'jobs', url: '/api/v2/jobs', json: recordedJson(e), idempotencyKey: 'k-replay-500' }).catch((x: unknown) => x)) as ApiError;
    expect(err).toMatchObject({ status: 500, code: 'http_500', exitCode: ExitCode.ERROR });
    expect(err.message).toContain('Server got itself in trouble');
    expect(mayHaveTakenEffect(err)).toBe(true);
    expect(neverReachedServer(err.cause)).toBe(false);
    expect(r.calls()).toHaveLength(1);
  });

  it('a read answered with the recorded 502 upstream_error is sent again, then gives up with it after the retries', async () => {
    const e = edgeCase('Range bytes=x on output content');
    const r = replay().answer(e).answer(e);
    const http = new HttpClient({ baseUrl: PROXY, routerUrl: PROXY, retries: 1, dispatcher: r.agent });
    const err = (await http.buffer({ family: 'jobs', url: new URL(e.request.path!, PROXY), headers: e.request.headers }).catch((x: unknown) => x)) as ApiError;
    expect(err).toMatchObject({ status: 502, code: 'upstream_error', message: 'ComfyUI returned an unexpected status for the output.' });
    expect(r.calls()).toHaveLength(2);
    r.allAsked();
  });
});

describe('the composition root', () => {
  it('sends through the dispatcher even where the environment names a proxy for the origin', async () => {
    const r = replay().answer(namedExchange('v2-proxy-lifecycle.json', 'health'));
    const env = { HTTP_PROXY: 'http://127.0.0.1:9', WES_PROXY_LOOPBACK: '1' };
    const http = composeHttp({ endpoints: { baseUrl: PROXY, routerUrl: PROXY, engineUrl: PROXY, apiKey: undefined, routerToken: undefined }, env, userAgent: 'wes-test', dispatcher: r.agent });
    const res = await http.json<{ status: string; upstream: string }>({ family: 'jobs', url: '/api/v2/health' });
    expect(res.body).toEqual({ status: 'healthy', upstream: ENGINE });
    r.allAsked();
    await http.close();
  });

  it('hands its dispatcher to the HttpClient it builds', async () => {
    const r = replay().answer(namedExchange('v2-proxy-lifecycle.json', 'health'));
    const http = composeHttp({ endpoints: { baseUrl: PROXY, routerUrl: PROXY, engineUrl: PROXY, apiKey: undefined, routerToken: undefined }, env: {}, userAgent: 'wes-test', dispatcher: r.agent });
    const res = await http.json<{ status: string }>({ family: 'jobs', url: '/api/v2/health' });
    expect(res.status).toBe(200);
    expect(r.calls()[0]!.headers['user-agent']).toBe('wes-test');
    await http.close();
  });
});
