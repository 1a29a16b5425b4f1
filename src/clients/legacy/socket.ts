// The v1 WebSocket (`/ws`), the one network path outside undici. Its URL and credential come from
// the HTTP layer (base URL, and the key only when the socket's origin is the configured one), so
// origin and token rules live in one place. The token travels in the query and is never logged.
//
// The connection reconnects with bounded backoff after a drop; a 401/403 handshake is final.
import { randomUUID } from 'node:crypto';
import WebSocket, { type RawData } from 'ws';
import type { IncomingMessage } from 'node:http';
import type { HttpClient } from '../../http/client.js';
import { decodeError } from '../../http/decode-error.js';
import { joinBase } from '../../http/links.js';
import { redactUrl } from '../../http/redact.js';
import { sleep } from '../../http/retry.js';
import { ExitCode, WesError } from '../../errors.js';
import { AnswerTooLargeError } from '../../http/answer-limit.js';
import { decodeFrame, type BinaryFrame } from '../../protocol/legacy-frames.js';

export interface SocketMessage {
  type: string;
  data: Record<string, unknown>;
}

export type SocketEvent =
  | { kind: 'open'; reconnected: boolean }
  | { kind: 'message'; message: SocketMessage }
  | { kind: 'binary'; frame: BinaryFrame; size: number }
  | { kind: 'malformed'; reason: string }
  | { kind: 'drop'; reason: string; attempt: number; delayMs: number };

export interface LegacySocketOptions {
  http: HttpClient;
  onEvent: (event: SocketEvent) => void;
  /** Ask for type-4 previews (which carry the prompt id) with the local engine's feature flags. */
  previewMetadata?: boolean;
  signal?: AbortSignal;
  /** Consecutive failed connection attempts tolerated before giving up. */
  maxAttempts?: number;
  /** What the error of a socket that gave up tells to do instead (the caller's words). */
  giveUpHint?: string;
  /** Backoff of the n-th consecutive failure (0-based), in ms. */
  backoff?: (failure: number) => number;
  debug?: (line: string) => void;
  clientId?: string;
  /** Read the socket in batches this many ms apart (0: as data lands); default READ_EVERY_MS. */
  readEveryMs?: number;
}

export interface LegacySocket {
  /** Settles when the first connection is open (or the socket gave up before that). */
  ready: Promise<void>;
  /** Settles when close() was called; rejects when the socket gave up or the handshake was refused. */
  closed: Promise<void>;
  close(): void;
  /** Settles once what has arrived by now was read and handed to onEvent (the socket reads in batches). */
  drain(): Promise<void>;
}

const DEFAULT_ATTEMPTS = 5;
/**
 * The socket is read in batches, every this many ms: a prompt's messages come as a flood of small
 * frames, and reading each as it lands costs a wakeup, a read and a round of the event loop per
 * frame. 50 000 messages (bench legacy-watch, CPU, interleaved runs): 1560 ms read as they land,
 * 1250 ms every 10 ms, 950-1140 ms every 25 ms, 910 ms every 50 ms (bare ws client: 1310 ms).
 * Progress is shown at most this much later; a spinner frame lasts 80 ms.
 */
export const READ_EVERY_MS = 50;
const HANDSHAKE_TIMEOUT_MS = 15_000;
const MAX_ERROR_BODY = 16 * 1024;

export function defaultSocketBackoff(failure: number): number {
  const step = Math.min(5_000, 250 * 2 ** failure);
  return Math.round(step / 2 + Math.random() * (step / 2));
}

/** `ws(s)://<base>/ws?clientId=…&token=…`, with the token only for the configured origin. */
export function legacySocketUrl(http: HttpClient, clientId: string): URL {
  const url = joinBase(http.baseUrlFor('legacy'), '/ws');
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('clientId', clientId);
  const token = http.credentialFor('legacy', url);
  if (token) url.searchParams.set('token', token);
  return url;
}

type AttemptEnd = { opened: boolean; reason: string };

function parseText(data: RawData): SocketMessage | string {
  let value: unknown;
  try {
    value = JSON.parse(data.toString());
  } catch {
    return 'text frame is not JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'text frame is not a JSON object';
  const message = value as Record<string, unknown>;
  if (typeof message.type !== 'string') return 'text frame has no string `type`';
  const payload = message.data;
  if (payload !== undefined && (typeof payload !== 'object' || payload === null || Array.isArray(payload))) return '`data` is not an object';
  return { type: message.type, data: (payload as Record<string, unknown> | undefined) ?? {} };
}

function asBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return data;
}

/**
 * Pauses the socket and lets it read every `ms`: what arrived meanwhile is taken in one go (the
 * poll phase after the timer reads until the kernel has no more), then it is paused again.
 */
function readInBatches(ws: WebSocket, ms: number, afterBatch: () => void): NodeJS.Timeout {
  ws.pause();
  const timer = setInterval(() => {
    ws.resume();
    setImmediate(() => {
      ws.pause();
      afterBatch();
    });
  }, ms);
  timer.unref(); // the socket keeps the process alive, not its reading schedule
  return timer;
}

export function openLegacySocket(options: LegacySocketOptions): LegacySocket {
  const clientId = options.clientId ?? randomUUID();
  const url = legacySocketUrl(options.http, clientId);
  const httpUrl = new URL(url);
  httpUrl.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
  const maxAttempts = options.maxAttempts ?? DEFAULT_ATTEMPTS;
  const readEveryMs = options.readEveryMs ?? READ_EVERY_MS;
  const backoff = options.backoff ?? defaultSocketBackoff;
  let current: WebSocket | null = null;
  let batching = false;
  const drained: Array<() => void> = [];
  const settleDrains = () => {
    for (const settle of drained.splice(0)) settle();
  };
  let closing = false;
  let everOpened = false;
  let markReady!: () => void;
  let failReady!: (err: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  ready.catch(() => undefined);

  function attempt(): Promise<AttemptEnd> {
    return new Promise((resolve, reject) => {
      options.debug?.(`> WebSocket ${redactUrl(url)}`);
      const ws = new WebSocket(url, { handshakeTimeout: HANDSHAKE_TIMEOUT_MS, maxPayload: options.http.maxAnswerBytes, followRedirects: false, createConnection: options.http.webSocketConnection(url) });
      current = ws;
      let opened = false;
      let lastError = '';
      ws.on('unexpected-response', (_req, res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_ERROR_BODY) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => {
          ws.terminate();
          const status = res.statusCode ?? 0;
          options.debug?.(`< ${status} WebSocket handshake refused`);
          const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]));
          const error = decodeError({ origin: 'legacy', status, headers, body: Buffer.concat(chunks), url: httpUrl });
          if (status === 401 || status === 403) reject(error);
          else resolve({ opened: false, reason: error.message });
        });
        res.on('error', () => resolve({ opened: false, reason: `handshake answered ${res.statusCode}` }));
      });
      let batches: NodeJS.Timeout | undefined;
      ws.on('open', () => {
        opened = true;
        if (readEveryMs > 0) {
          batches = readInBatches(ws, readEveryMs, settleDrains);
          batching = true;
        }
        options.debug?.('< WebSocket open');
        if (options.previewMetadata) ws.send(JSON.stringify({ type: 'feature_flags', data: { supports_preview_metadata: true } }));
        const reconnected = everOpened;
        everOpened = true;
        markReady();
        options.onEvent({ kind: 'open', reconnected });
      });
      ws.on('message', (data: RawData, isBinary: boolean) => {
        if (!isBinary) {
          const parsed = parseText(data);
          options.onEvent(typeof parsed === 'string' ? { kind: 'malformed', reason: parsed } : { kind: 'message', message: parsed });
          return;
        }
        const bytes = asBytes(data);
        const decoded = decodeFrame(bytes);
        options.onEvent(decoded.ok ? { kind: 'binary', frame: decoded.frame, size: bytes.length } : { kind: 'malformed', reason: decoded.reason });
      });
      ws.on('error', (err: Error & { code?: string }) => {
        lastError = err.message;
        // A message past the answer limit is refused for good: the server would send it again.
        if (err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') reject(new AnswerTooLargeError(httpUrl.origin, options.http.maxAnswerBytes));
      });
      ws.on('close', (code: number) => {
        clearInterval(batches);
        batching = false;
        settleDrains();
        current = null;
        resolve({ opened, reason: lastError || `connection closed (code ${code})` });
      });
    });
  }

  async function loop(): Promise<void> {
    let failures = 0;
    for (;;) {
      const end = await attempt();
      if (closing) return;
      if (end.opened) failures = 0;
      if (failures >= maxAttempts) {
        throw new WesError(`the v1 WebSocket could not be (re)connected after ${maxAttempts} attempts: ${end.reason}`, {
          exitCode: ExitCode.ERROR,
          code: 'network_error',
          hint: options.giveUpHint,
          origin: 'legacy',
        });
      }
      const delayMs = backoff(failures);
      failures++;
      options.onEvent({ kind: 'drop', reason: end.reason, attempt: failures, delayMs });
      try {
        await sleep(delayMs, stop.signal);
      } catch {
        return; // close() (or the caller's signal) ended the wait
      }
    }
  }

  const stop = new AbortController();
  const onAbort = () => close();
  function close(): void {
    closing = true;
    stop.abort();
    options.signal?.removeEventListener('abort', onAbort);
    current?.terminate();
  }
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const closed = loop().then(
    () => {
      if (!everOpened) failReady(options.signal?.reason ?? new WesError('the WebSocket was closed before it opened', { exitCode: ExitCode.ERROR, code: 'network_error' }));
      if (options.signal?.aborted) throw options.signal.reason;
    },
    (err: unknown) => {
      closing = true;
      failReady(err);
      throw options.signal?.aborted ? options.signal.reason : err;
    },
  );
  closed.catch(() => undefined);
  function drain(): Promise<void> {
    if (!batching) return Promise.resolve();
    return new Promise((resolve) => drained.push(resolve));
  }

  return { ready, closed, close, drain };
}
