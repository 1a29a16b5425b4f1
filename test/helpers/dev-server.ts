// Starts an in-process dev server on a free port with fast timings, and closes it after the test file.
import { createBLAKE3 } from 'hash-wasm';
import { afterAll, beforeAll } from 'vitest';
import type { DevServerHandle, DevServerOptions } from '../../src/dev-server/index.js';
import { startDevServer } from '../../src/dev-server/index.js';

export const FAST: DevServerOptions = { port: 0, stepMs: 5, hashDelayMs: 0, keepaliveMs: 200 };

export function startFast(options: DevServerOptions = {}): Promise<DevServerHandle> {
  return startDevServer({ ...FAST, ...options });
}

/**
 * A server of its own for each test that calls the returned function (tests that run side by side,
 * whose faults, request counts or queues must not meet), all closed after the file.
 */
export function useServerPerTest(options: DevServerOptions = {}): () => Promise<DevServerHandle> {
  const servers: DevServerHandle[] = [];
  afterAll(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async () => {
    const server = await startFast(options);
    servers.push(server);
    return server;
  };
}

/** Registers beforeAll/afterAll around a server; read `.server` inside tests. */
export function useDevServer(options: DevServerOptions = {}): { server: DevServerHandle } {
  const holder = {} as { server: DevServerHandle };
  beforeAll(async () => {
    holder.server = await startFast(options);
  });
  afterAll(async () => {
    await holder.server?.close();
  });
  return holder;
}

/** Authorization headers for the server's jobs API (Bearer) and legacy API (X-API-Key). */
export function v2Auth(server: DevServerHandle): Record<string, string> {
  return server.apiKey ? { authorization: `Bearer ${server.apiKey}` } : {};
}
export function v1Auth(server: DevServerHandle): Record<string, string> {
  return server.apiKey ? { 'x-api-key': server.apiKey } : {};
}

/** Scripts faults on a server started with `faults: true`. */
export async function addFaults(server: DevServerHandle, specs: unknown): Promise<void> {
  const res = await fetch(`${server.url}/__dev/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(specs),
  });
  if (res.status !== 201) throw new Error(`fault setup failed: ${res.status} ${await res.text()}`);
}

export async function requestCounts(server: DevServerHandle): Promise<Record<string, number>> {
  return (await (await fetch(`${server.url}/__dev/requests`)).json()) as Record<string, number>;
}

// ---- the jobs API helpers ----------------------------------------------------------------------

export type Json = Record<string, any>;

/** A path on the server, or a link the server wrote (absolute on self-hosted, host-relative elsewhere). */
export function serverUrl(server: DevServerHandle, pathOrLink: string): string {
  return new URL(pathOrLink, server.url).href;
}

export async function postJson(server: DevServerHandle, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Json }> {
  const res = await fetch(serverUrl(server, path), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...v2Auth(server), ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
}

/** GETs a path; `body` is the parsed JSON (`{}` when the answer is not JSON, e.g. the self-hosted plain-text 404), `text` the raw body. */
export async function getJson(server: DevServerHandle, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Json; text: string }> {
  const res = await fetch(serverUrl(server, path), { headers: { ...v2Auth(server), ...headers } });
  const text = await res.text();
  const json = /json/.test(res.headers.get('content-type') ?? '');
  return { status: res.status, headers: res.headers, body: text && json ? (JSON.parse(text) as Json) : {}, text };
}

/** Submits a workflow on the jobs API (under `prefix` on serverless) and returns the answer. */
export function submitJob(server: DevServerHandle, workflow: unknown, extra: { extra_data?: unknown; key?: string; prefix?: string } = {}) {
  const headers: Record<string, string> = extra.key ? { 'idempotency-key': extra.key } : {};
  const body = extra.extra_data === undefined ? { workflow } : { workflow, extra_data: extra.extra_data };
  return postJson(server, `${extra.prefix ?? ''}/api/v2/jobs`, body, headers);
}

/**
 * Reads a job link until its status is one of `statuses`. It reads again when the in-process
 * engine says a job's status changed, and at least every 100 ms (what the engine does not say:
 * expiry): reading every 5 ms, as it did, cost about a quarter of a core while a job ran.
 */
export async function waitForJob(server: DevServerHandle, self: string, statuses: string[], timeoutMs = 10_000): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const changed = statusChange(server);
    const { status, body } = await getJson(server, self);
    if (status === 200 && statuses.includes(body.status)) {
      changed.cancel();
      return body;
    }
    if (Date.now() > deadline) {
      changed.cancel();
      throw new Error(`job ${self} still ${status === 200 ? body.status : status}, wanted ${statuses.join('|')}`);
    }
    await changed.next;
  }
}

/** Resolves when the engine changes any job's status, or after 100 ms; armed before a read so that no change falls between. */
function statusChange(server: DevServerHandle): { next: Promise<void>; cancel: () => void } {
  const events = server.state.engine.events;
  let done = (): void => {};
  const next = new Promise<void>((resolve) => {
    const timer = setTimeout(finish, 100);
    function finish(): void {
      clearTimeout(timer);
      events.off('status', finish);
      resolve();
    }
    events.on('status', finish);
    done = finish;
  });
  return { next, cancel: () => done() };
}

/** A job of `workflow` submitted and read until it has succeeded: its id and the Job as last read. */
export async function finishedJob(server: DevServerHandle, workflow: unknown): Promise<{ id: string; job: Json }> {
  const id = (await submitJob(server, workflow)).body.id as string;
  return { id, job: await waitForJob(server, `/api/v2/jobs/${id}`, ['succeeded']) };
}

/** EmptyImage -> Sample -> SaveImage. */
export function imageWorkflow(fields: { steps?: number; seed?: number; prefix?: string; width?: number; height?: number } = {}): Json {
  return {
    '1': { class_type: 'EmptyImage', inputs: { width: fields.width ?? 16, height: fields.height ?? 12, batch_size: 1, color: 0x336699 } },
    '2': {
      class_type: 'Sample',
      inputs: { image: ['1', 0], steps: fields.steps ?? 3, seed: fields.seed ?? 7, denoise: 1, sampler_name: 'euler' },
    },
    '3': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: fields.prefix ?? 'wes' } },
  };
}

export function bytesWorkflow(size: number, contentType = 'application/octet-stream'): Json {
  return { '1': { class_type: 'SaveBytes', inputs: { size_bytes: size, content_type: contentType } } };
}

/** Reads a whole server-sent-event stream into events (comments kept apart, the raw text too). */
export async function readEventStream(res: Response): Promise<{ events: { event: string; data: Json }[]; comments: string[]; raw: string }> {
  const text = await res.text();
  const events: { event: string; data: Json }[] = [];
  const comments: string[] = [];
  for (const block of text.split('\n\n')) {
    if (!block.trim()) continue;
    let event = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) comments.push(line.slice(1).trim());
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (data) events.push({ event, data: JSON.parse(data) as Json });
  }
  return { events, comments, raw: text };
}

/**
 * Follows a job's event stream until a `progress` event satisfies `wanted`, then closes it. Comfy
 * Cloud polls a job under way with `progress: null`, so live progress is read here, as wes does.
 */
export async function streamedProgress(server: DevServerHandle, job: Json, wanted: (progress: Json) => boolean, timeoutMs = 10_000): Promise<Json> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const res = await fetch(serverUrl(server, job.urls.events), { headers: v2Auth(server), signal: abort.signal });
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (!/^event: progress$/m.test(block)) continue;
        const data = JSON.parse(block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('')) as Json;
        if (wanted(data)) return data;
      }
    }
    throw new Error('the event stream ended before the progress wanted');
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

export async function blake3(bytes: Buffer): Promise<string> {
  const hasher = await createBLAKE3();
  hasher.init();
  hasher.update(bytes);
  return `blake3:${hasher.digest('hex')}`;
}

/** POST /api/v2/assets with these fields (a list repeats the field, as `tags[]`) and the bytes as `file`. */
export async function uploadAsset(
  server: DevServerHandle,
  bytes: Buffer,
  fields: Record<string, string | string[]>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) form.append(name, one);
  form.append('file', new Blob([bytes]), 'upload.bin');
  const res = await fetch(serverUrl(server, '/api/v2/assets'), { method: 'POST', headers: { ...v2Auth(server), ...headers }, body: form });
  return { status: res.status, body: (await res.json()) as Json };
}
