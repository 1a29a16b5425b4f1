// A small server that answers as ComfyUI 0.3.18 or 0.3.64 did on 2026-11-26, from the recordings
// in test/fixtures/comfyui-selfhosted (engine-*.json, ws-*.json): an empty, chunked 404 for every
// GET it has no route for and a plain-text 405 for other methods, the recorded answers of
// system_stats, /features, refused prompts, queue and interrupt, and a prompt's WebSocket messages
// replayed as recorded for the sampler run: to the client named by `client_id` only (type-4 previews
// when that socket negotiated `feature_flags` on 0.3.64), or, posted without one, the broadcast a
// client-less prompt gets. One prompt runs at a time; the recorded ids are swapped for the new ones.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { encodePng } from '../../src/dev-server/engine/png.js';
import { fixture } from '../helpers/comfyui-fixtures.js';

export type RecordedVersion = '0.3.18' | '0.3.64';

interface Socket {
  ws: WebSocket;
  clientId: string;
  negotiated: boolean;
  spoke: boolean;
}

interface Prompt {
  id: string;
  number: number;
  workflow: Record<string, unknown>;
  clientId: string | undefined;
  state: 'pending' | 'running' | 'ended';
  stop?: () => void;
}

type Frame = { dir: string; text?: { type: string; data: any }; binary?: { type: number; image_format?: number; metadata?: Record<string, unknown> } };

export interface RecordedEngine {
  url: string;
  /** Every request: method, path, body. */
  requests: Array<{ method: string; path: string; body: string }>;
  /** The `client_id` each accepted prompt came with. */
  clientIds: Map<string, string | undefined>;
  /** Milliseconds between replayed messages (a step is about three of them). */
  gapMs: number;
  close(): Promise<void>;
}

/** The smallest JPEG a decoder accepts as whole: start and end markers around a few bytes. */
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0xff, 0xd9]);
const PNG = encodePng({ width: 2, height: 2, data: new Uint8Array(12) });

function header(type: number, second: number): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(type, 0);
  head.writeUInt32BE(second, 4);
  return head;
}

function frameBytes(binary: NonNullable<Frame['binary']>): Buffer {
  if (binary.type === 4) {
    const meta = Buffer.from(JSON.stringify(binary.metadata));
    return Buffer.concat([header(4, meta.length), meta, JPEG]);
  }
  return Buffer.concat([header(binary.type, binary.image_format ?? 1), JPEG]);
}

/** The recording with its ids swapped: the recorded prompt and client ids become this run's. */
function swapIds<T>(value: T, from: Record<string, string>): T {
  let text = JSON.stringify(value);
  for (const [old, now] of Object.entries(from)) text = text.split(old).join(now);
  return JSON.parse(text) as T;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (body === '') {
    res.writeHead(status, headers).end();
    return;
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers }).end(text);
}

/** The static route: an empty chunked 404 for GET and HEAD, its plain-text 405 otherwise. */
function unrouted(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === 'GET' || req.method === 'HEAD') {
    res.writeHead(404, { 'content-type': 'application/octet-stream' }).end();
    return;
  }
  res.writeHead(405, { 'content-type': 'text/plain; charset=utf-8' }).end('405: Method Not Allowed');
}

export async function startRecordedEngine(version: RecordedVersion): Promise<RecordedEngine> {
  const recorded = fixture(`engine-${version}.json`);
  const answers = recorded.answers;
  const newer = version === '0.3.64';
  const sockets = new Set<Socket>();
  const prompts = new Map<string, Prompt>();
  const history = new Map<string, unknown>();
  const queue: Prompt[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let number = 200;
  const engine: RecordedEngine = {
    url: '',
    requests: [],
    clientIds: new Map(),
    gapMs: 2,
    close: async () => undefined,
  };

  function broadcast(data: string | Buffer, to?: (s: Socket) => boolean): void {
    for (const s of sockets) if (!to || to(s)) s.ws.send(data, { binary: typeof data !== 'string' });
  }

  function queueTuple(p: Prompt): unknown[] {
    return [p.number, p.id, p.workflow, p.clientId ? { client_id: p.clientId } : {}, ['7']];
  }

  /** The recorded run of this prompt: what its submitter (or, without one, every client) got. */
  function script(p: Prompt, s: Socket | undefined): Frame[] {
    if (p.clientId === undefined) {
      const recording = fixture('ws-no-client-id-0.3.64.json');
      const socket = recording.sockets[s?.negotiated ? 0 : 1];
      const id = recording.post_prompt.response.prompt_id;
      return swapIds(socket.messages.filter((m: Frame) => m.dir === 'received' && !(m.text?.type === 'status' && m.text.data.sid) && m.text?.type !== 'feature_flags'), { [id]: p.id });
    }
    const name = newer ? (s?.negotiated ? 'ws-sampler-0.3.64.json' : 'ws-sampler-0.3.64-no-flags.json') : 'ws-sampler-0.3.18.json';
    const recording = fixture(name);
    const from = { [recording.post_prompt.response.prompt_id]: p.id, [recording.client_id]: p.clientId };
    return swapIds(recording.messages.filter((m: Frame) => m.dir === 'received' && !(m.text?.type === 'status' && m.text.data.sid) && m.text?.type !== 'feature_flags'), from);
  }

  function endWith(p: Prompt, entry: unknown): void {
    p.state = 'ended';
    history.set(p.id, entry);
    queue.shift();
    setImmediate(next);
  }

  function run(p: Prompt): void {
    p.state = 'running';
    const submitter = p.clientId === undefined ? undefined : [...sockets].find((s) => s.clientId === p.clientId);
    // Client-less: every socket gets the broadcast of its own kind; else the submitter its run, the others the statuses.
    const plans = p.clientId === undefined ? [...sockets].map((s) => ({ s, frames: script(p, s) })) : [{ s: submitter, frames: script(p, submitter) }];
    let step = 0;
    let stopped = false;
    const length = Math.max(0, ...plans.map((plan) => plan.frames.length));
    const timer = setInterval(() => {
      if (stopped) return;
      for (const { s, frames } of plans) {
        const frame = frames[step];
        if (!frame) continue;
        const data = frame.binary ? frameBytes(frame.binary) : JSON.stringify(frame.text);
        if (s) s.ws.send(data, { binary: frame.binary !== undefined });
        if (p.clientId !== undefined && frame.text?.type === 'status') broadcast(data, (other) => other !== s);
      }
      step++;
      if (step >= length) finish();
    }, engine.gapMs);
    timers.add(timer);
    const finish = () => {
      clearInterval(timer);
      const recording = fixture(newer ? 'ws-sampler-0.3.64.json' : 'ws-sampler-0.3.18.json');
      endWith(p, swapIds(recording.history_after, { [recording.post_prompt.response.prompt_id]: p.id })[p.id]);
    };
    p.stop = () => {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      const [old] = Object.keys(answers.history_interrupted.body);
      const ending = swapIds(recorded.ws_after_interrupt_running_id, { [old!]: p.id }) as Array<{ text: unknown }>;
      for (const m of ending) broadcast(JSON.stringify(m.text), (s) => p.clientId === undefined || s.clientId === p.clientId);
      endWith(p, swapIds(answers.history_interrupted.body, { [old!]: p.id })[p.id]);
    };
  }

  function next(): void {
    const head = queue[0];
    if (head && head.state === 'pending') run(head);
  }

  function submit(body: any, res: ServerResponse): void {
    if (typeof body !== 'object' || body === null || !('prompt' in body)) return send(res, 400, answers.prompt_no_prompt_key.body);
    if (JSON.stringify(body.prompt).includes('NoSuchNodeClass')) return send(res, 400, answers.prompt_unknown_class.body);
    const id = newer && typeof body.prompt_id === 'string' ? body.prompt_id : randomUUID();
    const p: Prompt = { id, number: number++, workflow: body.prompt, clientId: typeof body.client_id === 'string' ? body.client_id : undefined, state: 'pending' };
    prompts.set(id, p);
    engine.clientIds.set(id, p.clientId);
    queue.push(p);
    send(res, 200, { prompt_id: id, number: p.number, node_errors: {} });
    broadcast(JSON.stringify({ type: 'status', data: { status: { exec_info: { queue_remaining: queue.length } } } }));
    setImmediate(next);
  }

  function interrupt(body: any): void {
    const running = queue[0]?.state === 'running' ? queue[0] : undefined;
    if (!running) return;
    const named = newer && typeof body?.prompt_id === 'string' ? body.prompt_id : undefined;
    if (named === undefined || named === running.id) running.stop?.();
  }

  function outputNames(): Set<string> {
    const names = new Set<string>();
    for (const entry of history.values()) for (const output of Object.values<any>((entry as any).outputs ?? {})) for (const image of output.images ?? []) names.add(image.filename);
    return names;
  }

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url!, 'http://x');
    const path = url.pathname.replace(/^\/api(?=\/)/, '');
    engine.requests.push({ method: req.method!, path: url.pathname + url.search, body: raw });
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const get = req.method === 'GET';
    if (get && path === '/system_stats') return send(res, 200, answers.system_stats.body);
    if (get && path === '/features' && newer) return send(res, 200, answers.features.body);
    if (get && path === '/object_info') return send(res, 200, {});
    if (req.method === 'POST' && path === '/prompt') return submit(body, res);
    if (get && path === '/queue') {
      const running = queue.filter((p) => p.state === 'running').map(queueTuple);
      const pending = queue.filter((p) => p.state === 'pending').map(queueTuple);
      return send(res, 200, { queue_running: running, queue_pending: pending });
    }
    if (req.method === 'POST' && path === '/queue') {
      for (const id of body?.delete ?? []) {
        const at = queue.findIndex((p) => p.id === id && p.state === 'pending');
        if (at >= 0) queue.splice(at, 1);
      }
      return send(res, 200, '', { 'content-length': '0' });
    }
    if (req.method === 'POST' && path === '/interrupt') {
      interrupt(body);
      return send(res, 200, '', { 'content-length': '0' });
    }
    if (get && path === '/history') {
      const all = [...history];
      const max = url.searchParams.get('max_items');
      return send(res, 200, Object.fromEntries(max === null ? all : all.slice(-Number(max))));
    }
    if (get && path.startsWith('/history/')) {
      const id = decodeURIComponent(path.slice('/history/'.length));
      return send(res, 200, history.has(id) ? { [id]: history.get(id) } : {});
    }
    if (get && path === '/view') {
      if (!outputNames().has(url.searchParams.get('filename') ?? '')) return res.writeHead(404, { 'content-type': 'application/octet-stream' }).end();
      return res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PNG.length) }).end(PNG);
    }
    unrouted(req, res);
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url!, 'http://x');
    if (!/^\/(api\/)?ws$/.test(url.pathname)) return socket.end('HTTP/1.1 404 Not Found\r\nContent-Type: application/octet-stream\r\nContent-Length: 0\r\n\r\n');
    wss.handleUpgrade(req, socket, head, (ws) => {
      const s: Socket = { ws, clientId: url.searchParams.get('clientId') ?? randomUUID(), negotiated: false, spoke: false };
      sockets.add(s);
      ws.on('close', () => sockets.delete(s));
      ws.on('message', (data, binary) => {
        const first = !s.spoke;
        s.spoke = true;
        if (binary || !first || !newer) return;
        const message = JSON.parse(data.toString());
        if (message.type !== 'feature_flags') return;
        s.negotiated = message.data?.supports_preview_metadata === true;
        ws.send(JSON.stringify({ type: 'feature_flags', data: answers.features.body }));
      });
      ws.send(JSON.stringify({ type: 'status', data: { status: { exec_info: { queue_remaining: queue.length } }, sid: s.clientId } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  engine.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  engine.close = () =>
    new Promise((resolve) => {
      for (const timer of timers) clearInterval(timer);
      for (const s of sockets) s.ws.terminate();
      wss.close();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return engine;
}
