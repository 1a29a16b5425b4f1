// HttpClient.into: a 2xx answer goes to its sink as it arrives, once and in order; any other
// answer is decoded as buffer() decodes it and never opens the sink; a body that breaks or passes
// the answer limit drops what the sink made; and what the sink throws comes back as an
// AnswerSinkError, not retried and not mistaken for a network failure.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient, type HttpClientOptions } from '../../src/http/client.js';
import { AnswerSinkError, type AnswerSink } from '../../src/http/answer-sink.js';
import { AnswerTooLargeError } from '../../src/http/answer-limit.js';
import { ApiError, NetworkError } from '../../src/errors.js';
import { json, startTestServer, writeInPieces, type Handler, type TestServer } from '../helpers/http-server.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(() => Promise.all(opened.splice(0).map((thing) => thing.close())));
async function server(handler: Handler): Promise<TestServer> {
  const s = await startTestServer(handler);
  opened.push(s);
  return s;
}
function client(base: string, options: Partial<HttpClientOptions> = {}): HttpClient {
  const c = new HttpClient({ baseUrl: base, routerUrl: base, routerToken: 'router-token-0001', retries: 0, ...options });
  opened.push(c);
  return c;
}

/** A sink into memory that records what happened to it. */
function recordingSink(failTakeAt?: number) {
  const log = { opens: 0, takes: 0, closes: 0, drops: 0, bytes: [] as Buffer[] };
  const sink: AnswerSink<Buffer> = {
    async open() {
      log.opens++;
      const kept: Buffer[] = [];
      return {
        take(chunk) {
          if (++log.takes === failTakeAt) throw new Error('disk full');
          kept.push(Buffer.from(chunk));
        },
        async close() {
          log.closes++;
          return Buffer.concat(kept);
        },
        async drop() {
          log.drops++;
        },
      };
    },
  };
  return { sink, log };
}

const post = (c: HttpClient, sink: AnswerSink<Buffer>, extra: { idempotencyKey?: string; retries?: number } = {}) =>
  c.into({ family: 'models', method: 'POST', url: '/v1/models/dev/echo', body: '{}', largeAnswer: true, ...extra }, sink);

describe('an answer sent to a sink', () => {
  it('gets every byte of a 2xx body once and in order; the result is what the sink made', async () => {
    const body = randomBytes((4 << 20) + 3);
    const s = await server(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length), 'x-service-request-id': 'req_sink' });
      await writeInPieces(res, body, { maxPiece: 500_000 });
    });
    const { sink, log } = recordingSink();
    const res = await post(client(s.url), sink);
    expect(res.status).toBe(200);
    expect(res.requestId).toBe('req_sink');
    expect(res.body.equals(body)).toBe(true);
    expect(log).toMatchObject({ opens: 1, closes: 1, drops: 0 });
  });

  it('decodes an error answer as buffer() does and never opens the sink', async () => {
    const s = await server((_req, res) => json(res, 422, { detail: [{ loc: ['body', 'message'], msg: 'Input should be a valid string', type: 'string_type' }] }));
    const { sink, log } = recordingSink();
    const err = await post(client(s.url), sink).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(422);
    expect(log.opens).toBe(0);
  });

  it('drops what the sink made when the body breaks, and fails as a network error', async () => {
    const body = randomBytes(2 << 20);
    const s = await server(async (_req, res) => {
      res.writeHead(200, { 'content-length': String(body.length) });
      await writeInPieces(res, body, { stopAt: 1 << 20 });
    });
    const { sink, log } = recordingSink();
    const err = await post(client(s.url), sink).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(log).toMatchObject({ opens: 1, closes: 0, drops: 1 });
  });

  it('hands back what the sink throws as an AnswerSinkError, dropped and not retried', async () => {
    const body = randomBytes(3 << 20);
    const s = await server(async (_req, res) => {
      res.writeHead(200, { 'content-length': String(body.length) });
      await writeInPieces(res, body);
    });
    const { sink, log } = recordingSink(2);
    const err = await post(client(s.url, { retries: 3 }), sink, { idempotencyKey: 'key-sink-0001', retries: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AnswerSinkError);
    expect(((err as AnswerSinkError).cause as Error).message).toBe('disk full');
    expect(log).toMatchObject({ opens: 1, closes: 0, drops: 1 });
    expect(s.requests).toHaveLength(1);
  });

  it('keeps the answer limit: a declared length past it never opens the sink; an undeclared body is dropped once past it', async () => {
    const big = randomBytes(3 << 20);
    const declared = await server((_req, res) => res.writeHead(200, { 'content-length': String(big.length) }).end(big));
    const first = recordingSink();
    await expect(post(client(declared.url, { maxAnswerBytes: 1 << 20 }), first.sink)).rejects.toThrow(AnswerTooLargeError);
    expect(first.log.opens).toBe(0);
    const undeclared = await server(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      await writeInPieces(res, big);
    });
    const second = recordingSink();
    await expect(post(client(undeclared.url, { maxAnswerBytes: 1 << 20 }), second.sink)).rejects.toThrow(AnswerTooLargeError);
    expect(second.log).toMatchObject({ opens: 1, closes: 0, drops: 1 });
  });
});
