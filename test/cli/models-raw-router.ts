// A small purpose-built router for the models CLI tests: it serves only the published routes
// (/v2/models...), answers any other path as a web server does for a route it lacks (a plain-text
// 404 without the router's error type), and lets a test decide every run answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { json, startTestServer, type TestServer } from '../helpers/http-server.js';

export type RunHandler = (req: IncomingMessage & { body: Buffer }, res: ServerResponse, n: number) => unknown;

export interface RawRouter {
  server: TestServer;
  /** How POST /v2/models/{provider}/{model} answers (default: the body back, as JSON). */
  onRun: RunHandler;
  /** Requests seen as "METHOD path" (query left out). */
  seen(): string[];
}

const ENTRY = { id: 'acme/chat', provider: 'acme', model: 'chat', billing: { charges_on_policy_rejection: 'no' } };

export function routerError(res: ServerResponse, status: number, type: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}): void {
  json(res, status, { detail: `refused: ${type}`, error_type: type, ...body }, { 'x-service-error-type': type, 'x-service-request-id': 'req-raw', ...headers });
}

export function useRawRouter(): RawRouter {
  const holder = {
    onRun: ((req, res) => res.writeHead(200, { 'content-type': 'application/json', 'x-service-request-id': 'req-raw' }).end(req.body)) as RunHandler,
  } as RawRouter;
  beforeAll(async () => {
    holder.server = await startTestServer((req, res, n) => {
      const path = (req.url ?? '').split('?')[0]!;
      if (path === '/v2/models' && req.method === 'GET') return json(res, 200, { data: [ENTRY], has_more: false, limit: 20 }, { 'x-service-request-id': 'req-raw' });
      if (path === '/v2/models/acme/chat' && req.method === 'GET') return json(res, 200, ENTRY, { 'x-service-request-id': 'req-raw' });
      if (path.startsWith('/v2/models/') && req.method === 'POST') return holder.onRun(req, res, n);
      if (path.startsWith('/v2/models')) return routerError(res, 404, 'model_not_found');
      res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
    });
    holder.seen = () => holder.server.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`);
  });
  afterAll(() => holder.server?.close());
  return holder;
}
