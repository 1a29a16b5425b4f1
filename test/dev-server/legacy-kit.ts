// Shared pieces of the legacy API tests: workflows, a v1 fetch helper and a WebSocket recorder.
import WebSocket from 'ws';
import { afterAll, beforeAll } from 'vitest';
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { startFast } from '../helpers/dev-server.js';

/** The smallest engine workflow: an empty image saved under `prefix`. */
export function twoNodeWorkflow(prefix = 'engine'): Record<string, unknown> {
  return {
    '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0 } },
    '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: prefix } },
  };
}

/** Two self-hosted dev-servers around a test file: with the job API v2 beside the engine, and --engine-only. */
export function useSelfHostedServers(): { server(): DevServerHandle; engineOnly(): DevServerHandle } {
  let server: DevServerHandle | undefined;
  let engineOnly: DevServerHandle | undefined;
  beforeAll(async () => {
    server = await startFast({ deployment: 'self-hosted', stepMs: 3 });
    engineOnly = await startFast({ deployment: 'self-hosted', engineOnly: true, stepMs: 3 });
  });
  afterAll(async () => {
    await server?.close();
    await engineOnly?.close();
  });
  return { server: () => server!, engineOnly: () => engineOnly! };
}

export function sampleWorkflow(steps = 3, prefix = 'wes', seed = 1): Record<string, unknown> {
  return {
    '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0x336699 } },
    '2': { class_type: 'Sample', inputs: { image: ['1', 0], steps, seed, denoise: 1, sampler_name: 'euler' } },
    '3': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: prefix } },
  };
}

/** Several chained 150-step samplers: a prompt that runs long enough to be deleted or interrupted. */
export function longWorkflow(prefix = 'long', samplers = 6): Record<string, unknown> {
  const workflow: Record<string, unknown> = { '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0 } } };
  for (let i = 0; i < samplers; i++) {
    workflow[String(i + 2)] = { class_type: 'Sample', inputs: { image: [String(i + 1), 0], steps: 150, seed: i, denoise: 1, sampler_name: 'euler' } };
  }
  workflow['99'] = { class_type: 'SaveImage', inputs: { images: [String(samplers + 1), 0], filename_prefix: prefix } };
  return workflow;
}

export function failingWorkflow(message = 'boom on purpose'): Record<string, unknown> {
  return {
    '1': { class_type: 'Fail', inputs: { message } },
    '2': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'never' } },
  };
}

export interface V1Answer {
  status: number;
  headers: Headers;
  body: any;
}

export async function v1(server: DevServerHandle, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<V1Answer> {
  const init: RequestInit = {
    method,
    headers: { ...(server.apiKey ? { 'x-api-key': server.apiKey } : {}), ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}), ...headers },
    redirect: 'manual',
  };
  if (body !== undefined) init.body = body instanceof FormData ? body : JSON.stringify(body);
  const res = await fetch(`${server.url}${path}`, init);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** POST /api/prompt; `fields` go into the body beside `prompt` (an engine's `client_id`, `prompt_id`). */
export async function submit(server: DevServerHandle, workflow: Record<string, unknown>, extra?: Record<string, unknown>, fields: Record<string, unknown> = {}): Promise<string> {
  const res = await v1(server, 'POST', '/api/prompt', { prompt: workflow, ...(extra ? { extra_data: extra } : {}), ...fields });
  if (res.status !== 200) throw new Error(`submit failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.prompt_id as string;
}

export async function statusOf(server: DevServerHandle, id: string): Promise<string> {
  return (await v1(server, 'GET', `/api/job/${id}/status`)).body.status as string;
}

export async function waitForStatus(server: DevServerHandle, id: string, terminal: string[], timeoutMs = 10_000): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await statusOf(server, id);
    if (seen[seen.length - 1] !== status) seen.push(status);
    if (terminal.includes(status)) return seen;
    await new Promise((r) => setTimeout(r, 3));
  }
  throw new Error(`no terminal status for ${id}; saw ${seen.join(' → ')}`);
}

export type Received = { kind: 'json'; type: string; data: any } | { kind: 'binary'; bytes: Buffer };

/** A raw /ws client that records every frame it gets. */
export class WsRecorder {
  readonly frames: Received[] = [];
  private waiters: Array<() => void> = [];
  closed = false;

  private constructor(
    readonly ws: WebSocket,
    /** The id it connected with: a prompt submitted with it as `client_id` sends an engine's messages here. */
    readonly clientId: string,
  ) {
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) this.frames.push({ kind: 'binary', bytes: Buffer.from(data) });
      else {
        const message = JSON.parse(data.toString());
        this.frames.push({ kind: 'json', type: message.type, data: message.data });
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    ws.on('close', () => {
      this.closed = true;
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async open(server: DevServerHandle, options: { token?: string | null; metadata?: boolean; clientId?: string } = {}): Promise<WsRecorder> {
    const token = options.token === undefined ? server.apiKey : options.token;
    const clientId = options.clientId ?? `test-${Math.random()}`;
    const url = `${server.url.replace(/^http/, 'ws')}/ws?clientId=${encodeURIComponent(clientId)}${token ? `&token=${encodeURIComponent(token)}` : ''}`;
    const ws = new WebSocket(url);
    const recorder = new WsRecorder(ws, clientId);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`handshake ${res.statusCode}`), { status: res.statusCode })));
      ws.once('error', reject);
    });
    if (options.metadata) {
      ws.send(JSON.stringify({ type: 'feature_flags', data: { supports_preview_metadata: true } }));
      await recorder.roundTrip(); // the server has read the feature_flags before anything is submitted
    }
    return recorder;
  }

  /**
   * Resolves once the server has answered a ping sent now: it reads a connection's frames in
   * order, so by then it has handled every message sent before.
   */
  roundTrip(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ws.once('pong', () => resolve());
      this.ws.ping((err?: Error) => err && reject(err));
    });
  }

  json(promptId?: string): Array<{ type: string; data: any }> {
    return this.frames.filter((f): f is Extract<Received, { kind: 'json' }> => f.kind === 'json' && (promptId === undefined || f.data?.prompt_id === promptId));
  }

  binary(): Buffer[] {
    return this.frames.filter((f): f is Extract<Received, { kind: 'binary' }> => f.kind === 'binary').map((f) => f.bytes);
  }

  async until(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (this.closed) throw new Error('socket closed while waiting');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; got ${this.json().map((m) => m.type).join(', ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async untilType(type: string, promptId: string): Promise<void> {
    await this.until(() => this.json(promptId).some((m) => m.type === type));
  }

  close(): void {
    this.ws.terminate();
  }
}
