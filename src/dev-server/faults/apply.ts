// Carries out a scripted fault on a live request. 'status' and 'drop' (without after_bytes)
// replace the answer; 'delay' holds it back; 'truncate', 'drop' with after_bytes, 'stall' and
// 'corrupt' let the real handler answer and tamper with the body on its way out, so they work on
// any answer: JSON, downloads, event streams. 'lose' lets the handler do its work (a job is
// created) and cuts the connection before a byte of the answer: the client never learns of it.
// 'after' lets the handler do its work too, then answers the fault's status in place of its
// answer: a job made, and a 5xx said about it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultSpec } from '../contract.js';
import { markRace } from './races.js';

export type FaultOutcome = 'answered' | 'continue';

type WriteCallback = (err?: Error | null) => void;

function toBuffer(chunk: unknown, encoding?: BufferEncoding): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk), encoding ?? 'utf8');
}

/**
 * Routes every body byte the handler writes through `filter`, which returns the bytes to really
 * send (possibly fewer) and whether to cut the connection after them.
 */
function interceptBody(
  res: ServerResponse,
  filter: (chunk: Buffer, offset: number) => { send: Buffer; cut: 'none' | 'end' | 'destroy' | 'swallow' },
): void {
  const realWrite = res.write.bind(res) as (chunk: Buffer, cb?: WriteCallback) => boolean;
  const realEnd = res.end.bind(res) as (cb?: () => void) => ServerResponse;
  let offset = 0;
  let done = false;
  const pass = (chunk: unknown, encoding: unknown, cb: unknown): boolean => {
    const callback = (typeof encoding === 'function' ? encoding : cb) as WriteCallback | undefined;
    if (done || chunk === undefined || chunk === null) {
      if (callback) process.nextTick(callback);
      return true;
    }
    const buffer = toBuffer(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : undefined);
    const { send, cut } = filter(buffer, offset);
    offset += buffer.length;
    if (cut === 'none') return realWrite(send, callback);
    done = true;
    if (cut === 'swallow') {
      res.flushHeaders();
      if (send.length > 0) realWrite(send); // a stall after N bytes sends all N, not only whole chunks
      if (callback) process.nextTick(callback);
      return true;
    }
    const finish = (): void => {
      if (cut === 'end') res.socket?.end();
      else res.socket?.destroy();
    };
    res.flushHeaders();
    if (send.length > 0) realWrite(send, finish);
    else finish();
    if (callback) process.nextTick(callback);
    return true;
  };
  res.write = ((chunk: unknown, encoding?: unknown, cb?: unknown) => pass(chunk, encoding, cb)) as typeof res.write;
  res.end = ((chunk?: unknown, encoding?: unknown, cb?: unknown) => {
    const callback = [chunk, encoding, cb].find((x) => typeof x === 'function') as (() => void) | undefined;
    if (chunk !== undefined && typeof chunk !== 'function') pass(chunk, encoding, undefined);
    if (!done) {
      // Nothing was cut: the whole body went through; a stall or a cut past the end still applies.
      const { cut } = filter(Buffer.alloc(0), offset);
      if (cut === 'swallow') {
        done = true;
        res.flushHeaders();
      } else if (cut === 'none') {
        return realEnd(callback);
      } else {
        done = true;
        res.flushHeaders();
        if (cut === 'end') res.socket?.end();
        else res.socket?.destroy();
      }
    }
    if (callback) process.nextTick(callback);
    return res;
  }) as typeof res.end;
}

function declaredLength(res: ServerResponse): number | null {
  const value = res.getHeader('content-length');
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) ? n : null;
}

/** Where to cut or flip when the fault names no byte: half the declared length, or half the first chunk. */
function defaultPoint(res: ServerResponse, firstChunk: Buffer): number {
  return Math.floor((declaredLength(res) ?? firstChunk.length) / 2);
}

function cutAfter(res: ServerResponse, spec: FaultSpec, mode: 'end' | 'destroy'): void {
  let limit: number | null = spec.after_bytes ?? null;
  interceptBody(res, (chunk, offset) => {
    limit ??= defaultPoint(res, chunk);
    const room = limit - offset;
    // An empty chunk is the end of the body: a body shorter than the cut is still cut off there.
    if (chunk.length === 0 || room < chunk.length) return { send: chunk.subarray(0, Math.max(0, room)), cut: mode };
    return { send: chunk, cut: 'none' };
  });
}

/** Sends the first `after_bytes` body bytes (default none), then nothing more until the client goes away. */
function stallAfter(res: ServerResponse, spec: FaultSpec): void {
  const limit = spec.after_bytes ?? 0;
  interceptBody(res, (chunk, offset) => {
    const room = limit - offset;
    if (chunk.length === 0 || room < chunk.length) return { send: chunk.subarray(0, Math.max(0, room)), cut: 'swallow' };
    return { send: chunk, cut: 'none' };
  });
}

/** The handler runs to the end; its answer (headers included) never leaves: the connection is cut instead. */
function loseAnswer(res: ServerResponse): void {
  const cut = (): ServerResponse => {
    res.socket?.destroy();
    return res;
  };
  // end() without writeHead() still passes through writeHead (Node's implicit header).
  res.writeHead = cut as unknown as typeof res.writeHead;
  res.flushHeaders = () => void cut();
  res.write = ((..._args: unknown[]) => (cut(), true)) as typeof res.write;
  res.end = ((..._args: unknown[]) => cut()) as typeof res.end;
}

/** The handler runs to the end; its answer is swallowed and the fault's status answer goes out instead. */
function answerAfter(res: ServerResponse, spec: FaultSpec): void {
  const real = { writeHead: res.writeHead, write: res.write, end: res.end, flushHeaders: res.flushHeaders };
  let answered = false;
  const answer = (): ServerResponse => {
    if (answered) return res;
    answered = true;
    Object.assign(res, real);
    answerStatus(res, spec);
    return res;
  };
  res.writeHead = (() => res) as unknown as typeof res.writeHead;
  res.flushHeaders = () => undefined;
  res.write = ((..._args: unknown[]) => true) as typeof res.write;
  res.end = ((..._args: unknown[]) => answer()) as typeof res.end;
}

function corrupt(res: ServerResponse, spec: FaultSpec): void {
  let at: number | null = spec.after_bytes ?? null;
  interceptBody(res, (chunk, offset) => {
    at ??= defaultPoint(res, chunk);
    const index = at - offset;
    if (index >= 0 && index < chunk.length) {
      const copy = Buffer.from(chunk);
      copy[index] = copy[index]! ^ 0xff;
      return { send: copy, cut: 'none' };
    }
    return { send: chunk, cut: 'none' };
  });
}

function answerStatus(res: ServerResponse, spec: FaultSpec): void {
  const headers: Record<string, string> = { ...(spec.headers ?? {}) };
  if (spec.retry_after !== undefined) headers['retry-after'] = String(spec.retry_after);
  let body = '';
  if (typeof spec.body === 'string') body = spec.body;
  else if (spec.body !== undefined) {
    body = JSON.stringify(spec.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json; charset=utf-8';
    }
  }
  headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(spec.status ?? 500, headers);
  res.end(body);
}

export async function applyFault(spec: FaultSpec, req: IncomingMessage, res: ServerResponse): Promise<FaultOutcome> {
  switch (spec.action) {
    case 'status':
      answerStatus(res, spec);
      return 'answered';
    case 'delay':
      await new Promise((resolve) => setTimeout(resolve, spec.delay_ms ?? 1000));
      return 'continue';
    case 'drop':
      if (spec.after_bytes === undefined) {
        req.socket.destroy();
        return 'answered';
      }
      cutAfter(res, spec, 'destroy');
      return 'continue';
    case 'truncate':
      cutAfter(res, spec, 'end');
      return 'continue';
    case 'stall':
      stallAfter(res, spec);
      return 'continue';
    case 'lose':
      loseAnswer(res);
      return 'continue';
    case 'corrupt':
      corrupt(res, spec);
      return 'continue';
    case 'after':
      answerAfter(res, spec);
      return 'continue';
    case 'race':
      markRace(req, spec.race!);
      return 'continue';
  }
}
