// Answers read whole through the bulk connections (HttpRequest.largeAnswer, what `models run`
// asks for): every byte arrives once and in order with a declared length or without one, the
// answer limit still holds both ways, error answers are still decoded, and a server that holds
// the head longer than the read timeout (holdsAnswer) is still waited for.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient, type HttpClientOptions } from '../../src/http/client.js';
import { AnswerTooLargeError } from '../../src/http/answer-limit.js';
import { ApiError } from '../../src/errors.js';
import { json, startTestServer, writeInPieces, type Handler, type TestServer } from '../helpers/http-server.js';

/** Servers and clients of a test, closed after it. */
const opened: Array<{ close(): Promise<void> }> = [];
function kept<T extends { close(): Promise<void> }>(thing: T): T {
  opened.push(thing);
  return thing;
}
afterEach(() => Promise.all(opened.splice(0).map((thing) => thing.close())));

const server = async (handler: Handler): Promise<TestServer> => kept(await startTestServer(handler));
const client = (base: string, options: Partial<HttpClientOptions> = {}) =>
  kept(new HttpClient({ baseUrl: base, routerUrl: base, routerToken: 'router-token-0001', retries: 0, ...options }));

const run = (c: HttpClient, body: Buffer, extra: { holdsAnswer?: boolean } = {}) =>
  c.buffer({ family: 'models', method: 'POST', url: '/v1/models/dev/echo', body, headers: { 'content-type': 'application/json' }, largeAnswer: true, ...extra });

describe('an answer read whole through the bulk connections', () => {
  it('with a Content-Length: the bytes come back exactly, sent in uneven pieces', async () => {
    const body = randomBytes(5_000_000 + 17);
    const s = await server(async (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(req.body.length) });
      await writeInPieces(res, req.body, { maxPiece: 700_000 });
    });
    const res = await run(client(s.url), body);
    expect(res.status).toBe(200);
    expect(res.body.equals(body)).toBe(true);
    expect(s.requests[0]!.body.equals(body)).toBe(true);
  });

  it('without a Content-Length (chunked transfer coding): the bytes come back exactly', async () => {
    const body = randomBytes(3 << 20);
    const s = await server(async (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }); // no length: Node sends it chunked
      await writeInPieces(res, req.body, { maxPiece: 200_000 });
    });
    const res = await run(client(s.url), body);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.body.equals(body)).toBe(true);
  });

  it('keeps the answer limit: a declared length past it fails at once, an undeclared body as soon as it passes it', async () => {
    const big = randomBytes(3 << 20);
    const declared = await server((_req, res) => res.writeHead(200, { 'content-length': String(big.length) }).end(big));
    await expect(run(client(declared.url, { maxAnswerBytes: 1 << 20 }), Buffer.from('{}'))).rejects.toThrow(AnswerTooLargeError);
    const undeclared = await server(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      await writeInPieces(res, big);
    });
    const err = await run(client(undeclared.url, { maxAnswerBytes: 1 << 20 }), Buffer.from('{}')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AnswerTooLargeError);
    expect((err as Error).message).toContain('more than 1.0 MiB');
  });

  it('decodes an error answer as before (status, code, message)', async () => {
    const s = await server((_req, res) => json(res, 422, { detail: [{ loc: ['body', 'message'], msg: 'Input should be a valid string', type: 'string_type' }] }));
    const err = await run(client(s.url), Buffer.from('{"message":1}')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(422);
  });

  it('with holdsAnswer, waits for a head that comes later than the read timeout', async () => {
    const s = await server(async (req, res) => {
      await new Promise((r) => setTimeout(r, 400));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(req.body.length) }).end(req.body);
    });
    const res = await run(client(s.url, { readTimeoutMs: 100 }), Buffer.from('{"a":1}'), { holdsAnswer: true });
    expect(res.body.toString()).toBe('{"a":1}');
  });
});
