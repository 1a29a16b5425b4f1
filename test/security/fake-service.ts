// A purpose-built jobs API for shapes the dev-server will not produce: one job whose outputs,
// names, error text and links the test chooses, served over http or https, every request
// recorded. Outputs are served from `/blob/<i>` (with Range) unless a test answers them itself.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createBLAKE3 } from 'hash-wasm';
import type { Job, Output } from '../../src/protocol/jobs.js';

export interface FakeOutput {
  name: string;
  body: Buffer;
  /** An absolute URL to use instead of this server's `/blob/<i>`. */
  url?: string;
  /** Override the blake3 (null: not computed yet). */
  hash?: string | null;
}

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

type Route = (req: IncomingMessage, res: ServerResponse, seen: number) => void | Promise<void>;

export interface FakeServiceOptions {
  outputs?: FakeOutput[];
  /** Fields of the Job to replace (status, error, progress, urls...). */
  job?: Partial<Job>;
  /** Answers a request before the built-in routes; return true when it did. */
  route?: (req: IncomingMessage, res: ServerResponse, seen: number) => boolean | Promise<boolean>;
  /** Answers `/blob/<i>` instead of the built-in Range-aware server. */
  blob?: (req: IncomingMessage, res: ServerResponse, index: number, seen: number) => void;
  tls?: { key: string; cert: string };
}

export interface FakeService {
  url: string;
  jobId: string;
  requests: Recorded[];
  job(): Job;
  close(): Promise<void>;
}

export const FAKE_JOB_ID = '11111111-2222-4333-8444-555555555555';

export async function blake3Of(body: Buffer): Promise<string> {
  const hasher = await createBLAKE3();
  hasher.update(body);
  return `blake3:${hasher.digest('hex')}`;
}

/** Serves `body`, honouring a single `Range: bytes=N-`. */
export function serveBytes(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  const range = /^bytes=(\d+)-$/.exec(String(req.headers.range ?? ''));
  const start = range ? Number(range[1]) : 0;
  if (range && start < body.length) {
    res.writeHead(206, { 'content-length': body.length - start, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` }).end(body.subarray(start));
  } else {
    res.writeHead(200, { 'content-length': body.length, 'accept-ranges': 'bytes' }).end(body);
  }
}

export async function startFakeService(options: FakeServiceOptions = {}): Promise<FakeService> {
  const requests: Recorded[] = [];
  const outputs = options.outputs ?? [];
  const hashes = await Promise.all(outputs.map((o) => (o.hash !== undefined ? o.hash : blake3Of(o.body))));
  let origin = '';
  const self = `/api/v2/jobs/${FAKE_JOB_ID}`;
  const job = (): Job => ({
    id: FAKE_JOB_ID,
    status: 'succeeded',
    created_at: '2026-01-01T00:00:00Z',
    started_at: '2026-01-01T00:00:01Z',
    completed_at: '2026-01-01T00:00:02Z',
    expires_at: '2099-01-01T00:00:00Z',
    queue_position: null,
    progress: { value: 1, nodes_done: 1, nodes_total: 1 },
    error: null,
    outputs: outputs.map((o, i): Output => ({
      node_id: '9',
      name: o.name,
      type: 'file',
      content_type: 'application/octet-stream',
      size_bytes: o.body.length,
      id: `out-${i}`,
      hash: hashes[i] ?? null,
      url: o.url ?? `${origin}/blob/${i}`,
      url_expires_at: '2099-01-01T00:00:00Z',
    })),
    urls: { self, events: `${self}/events`, cancel: `${self}/cancel` },
    ...options.job,
  });
  const builtIn: Route = (req, res, seen) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const blob = /^\/blob\/(\d+)$/.exec(path);
    if (blob && Number(blob[1]) < outputs.length) {
      const index = Number(blob[1]);
      if (options.blob) return options.blob(req, res, index, seen);
      return serveBytes(req, res, outputs[index]!.body);
    }
    if ((req.method === 'GET' && path === self) || (req.method === 'POST' && path === '/api/v2/jobs')) {
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(job()));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'not_found', message: `no route ${path}` } }));
  };
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    for await (const _ of req) void _; // drain the body
    requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
    try {
      if (options.route && (await options.route(req, res, requests.length))) return;
      await builtIn(req, res, requests.length);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  };
  const server = options.tls ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, handler) : createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `${options.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    jobId: FAKE_JOB_ID,
    requests,
    job,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
