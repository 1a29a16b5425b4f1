// A response body handed to its one consumer chunk by chunk, synchronously, as undici parses it:
// no Readable, no async iterator and no buffering in between (per chunk, those cost more than
// hashing and writing it). A chunk is valid only during the call that receives it (the bulk
// sockets read into reused buffers): the consumer hashes it and writes or copies it before it
// returns, or returns a promise, which pauses the transfer until it settles.
import { Readable } from 'node:stream';
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from './undici-core.js';

/** Takes one chunk; a promise returned holds the next chunk back until it settles. */
export type TakeChunk = (chunk: Buffer) => void | Promise<void>;

export interface ChunkedBody {
  /** Feeds every chunk to `take` in order; resolves at the end, rejects when the body breaks. Once only. */
  forEach(take: TakeChunk): Promise<void>;
  /** Abandons the body (its connection is closed). */
  destroy(reason?: Error): void;
}

export interface ChunkedResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** A 2xx answer's body as chunks; any other answer's as a Readable of copies, to be read whole (errors, redirects). */
  body: ChunkedBody | Readable;
}

export interface ChunkedRequest {
  method: string;
  headers: Record<string, string>;
  body?: Dispatcher.DispatchOptions['body'];
  /** Aborts the request, or the body while it is being taken, with the signal's reason. */
  signal?: AbortSignal;
  /** undici's headersTimeout for this request (0: wait for the head as long as it takes); the dispatcher's otherwise. */
  headersTimeout?: number;
}

class AbandonedBody extends Error {
  constructor() {
    super('the response body was abandoned');
    this.name = 'AbortError';
  }
}

/** The undici handler behind one request: answers with the head, then delivers the body. */
class ChunkHandler implements Dispatcher.DispatchHandler, ChunkedBody {
  private controller?: Dispatcher.DispatchController;
  private take?: TakeChunk;
  /**
   * Chunks that came before forEach although the head paused the body: undici's forwarding
   * through an HTTP proxy drops the pause asked at the head. Copied (a bulk socket reuses its
   * buffers) and handed over first.
   */
  private early?: Buffer[];
  private copies?: Readable;
  private outcome?: { error?: Error };
  private settle?: { resolve: () => void; reject: (err: Error) => void };
  private answered = false;
  private finished = false;

  constructor(
    private readonly answer: { resolve: (res: ChunkedResponse) => void; reject: (err: Error) => void },
    private readonly signal: AbortSignal | undefined,
  ) {}

  private readonly onAbort = (): void => this.controller?.abort(this.signal!.reason as Error);

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal?.aborted) controller.abort(this.signal.reason as Error);
    else this.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (statusCode < 200) return; // informational: the answer follows
    this.answered = true;
    if (statusCode >= 300) {
      this.copies = new Readable({ read: () => controller.resume(), destroy: (err, done) => (this.finished || controller.abort(err ?? new AbandonedBody()), done(err)) });
      this.answer.resolve({ statusCode, headers, body: this.copies });
      return;
    }
    controller.pause(); // until forEach
    this.answer.resolve({ statusCode, headers, body: this });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.copies) {
      if (!this.copies.push(Buffer.from(chunk))) controller.pause();
      return;
    }
    if (!this.take) {
      (this.early ??= []).push(Buffer.from(chunk));
      controller.pause();
      return;
    }
    const held = this.take(chunk);
    if (held) {
      controller.pause();
      held.then(() => controller.resume(), (err: Error) => controller.abort(err));
    }
  }

  onResponseEnd(): void {
    this.finish();
    if (this.copies) this.copies.push(null);
    else this.end({});
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.finish();
    if (!this.answered) this.answer.reject(error);
    else if (this.copies) this.copies.destroy(error);
    else this.end({ error });
  }

  forEach(take: TakeChunk): Promise<void> {
    if (this.take) return Promise.reject(new Error('a response body can be taken once'));
    this.take = take;
    const done = new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    const early = this.early;
    this.early = undefined;
    if (!early) {
      if (this.outcome) this.end(this.outcome);
      else this.controller!.resume();
      return done;
    }
    void (async () => {
      for (const chunk of early) await take(chunk);
    })().then(
      () => (this.outcome ? this.end(this.outcome) : this.controller!.resume()),
      (err: Error) => (this.outcome ? this.end({ error: err }) : this.controller!.abort(err)),
    );
    return done;
  }

  destroy(reason?: Error): void {
    if (!this.outcome) this.controller?.abort(reason ?? new AbandonedBody());
  }

  private end(outcome: { error?: Error }): void {
    this.outcome = outcome;
    if (!this.settle) return;
    if (outcome.error) this.settle.reject(outcome.error);
    else this.settle.resolve();
  }

  private finish(): void {
    this.finished = true;
    this.signal?.removeEventListener('abort', this.onAbort);
  }
}

/** Sends a request whose answer's body is taken as chunks (see ChunkedBody). */
export function requestChunks(dispatcher: Dispatcher, url: URL, request: ChunkedRequest): Promise<ChunkedResponse> {
  return new Promise((resolve, reject) => {
    const handler = new ChunkHandler({ resolve, reject }, request.signal);
    const { method, headers, body, headersTimeout } = request;
    dispatcher.dispatch({ origin: url.origin, path: `${url.pathname}${url.search}`, method: method as Dispatcher.HttpMethod, headers, body, ...(headersTimeout === undefined ? {} : { headersTimeout }) }, handler);
  });
}

/** Whether a response body is a ChunkedBody (a 2xx answer of requestChunks) rather than a Readable. */
export function isChunkedBody(body: ChunkedBody | Readable): body is ChunkedBody {
  return body instanceof ChunkHandler;
}

/** A Readable taken as chunks (what saveToFile is given by callers that hold a stream). */
export function chunksOf(body: Readable): ChunkedBody {
  return {
    async forEach(take) {
      for await (const chunk of body) {
        const held = take(chunk as Buffer);
        if (held) await held;
      }
    },
    destroy: (reason) => void body.destroy(reason),
  };
}
