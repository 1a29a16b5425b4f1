// A small purpose-built HTTP server on 127.0.0.1:0 for transport tests: the handler decides each
// answer, and every request (method, url, headers, body) is recorded.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  at: number;
}

export interface TestServer {
  url: string;
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage & { body: Buffer }, res: ServerResponse, n: number) => unknown;

export async function startTestServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    requests.push({ method: req.method!, url: req.url!, headers: req.headers, body, at: Date.now() });
    try {
      await handler(Object.assign(req, { body }), res, requests.length);
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: origin,
    origin,
    requests,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/**
 * Writes bytes `from`..`stopAt` of `body` (after the head) in pieces of uneven sizes, 1 byte to
 * `maxPiece`, waiting for the socket to drain as a server would; a `stopAt` short of the end cuts
 * the connection there, else the answer ends.
 */
export async function writeInPieces(res: ServerResponse, body: Buffer, { from = 0, stopAt = body.length, maxPiece = 300_000 } = {}): Promise<void> {
  let at = from;
  for (let piece = 1; at < stopAt; piece++) {
    const end = Math.min(stopAt, at + ((piece * 7919) % maxPiece) + 1);
    if (!res.write(body.subarray(at, end))) await new Promise((r) => res.once('drain', r));
    at = end;
  }
  if (stopAt < body.length) res.socket?.destroy();
  else res.end();
}
