// Listens on a job's `urls.events` (server-sent events) only to learn *when* to re-read the job:
// everything on the stream is derived from the job, and GET stays the truth. Any failure (no
// stream, 501/429, a stream that breaks, stalls past the read timeout or ends) quietly leaves the
// caller on plain polling. A line or event longer than MAX_EVENT_CHARS (a server that never ends
// its line) is not buffered further: the stream is closed, with one notice, and polling goes on.
import { createParser } from 'eventsource-parser';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import type { FetchedJob, JobsClient } from './client.js';

/** Events that cannot change the job object (frames and printed lines): no re-read for them. */
const NO_REREAD = new Set(['preview', 'log']);
export const MAX_EVENT_CHARS = 1 << 20;

export interface EventListener {
  /** Resolves when the stream is over, for whatever reason. */
  readonly done: Promise<void>;
  close(): void;
}

/**
 * Builds a client whose requests end when `signal` aborts (the stream has its own lifetime), closed
 * when the stream is over; a `shared` one (many streams over one client, as a batch has) is kept.
 */
export type OpenClient = ((signal: AbortSignal) => JobsClient) & { shared?: boolean };

/** Ends a body nobody reads any more; undici reports that as an error, which no one needs to hear. */
function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/** A preview picture the stream carried (`event: preview`, data `{node_id, content_type, data: base64}`). */
export interface PreviewFrame {
  node: string;
  bytes: Buffer;
}

/** The picture of a preview event; null when the event is not one this client can read. */
export function previewFrame(data: string): PreviewFrame | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { node_id: node, data: base64 } = value as Record<string, unknown>;
  if (typeof base64 !== 'string' || base64 === '') return null;
  return { node: typeof node === 'string' ? node : '', bytes: Buffer.from(base64, 'base64') };
}

export function listenForChanges(
  open: OpenClient,
  job: FetchedJob,
  onChange: (event: string) => void,
  debug: (line: string) => void,
  notice: (line: string) => void = debug,
  onPreview?: (preview: PreviewFrame) => void,
): EventListener {
  const controller = new AbortController();
  const client = open(controller.signal);
  let body: Readable | undefined;
  let closed = false;
  const done = (async () => {
    try {
      const res = await client.events(job);
      body = res.body;
      if (closed) return discard(body);
      const type = res.headers['content-type'] ?? '';
      if (!type.toLowerCase().startsWith('text/event-stream')) {
        discard(body);
        return debug(`* the event stream answered ${type || 'no content type'}, not text/event-stream; polling only`);
      }
      let overflow = false;
      const parser = createParser({
        maxBufferSize: MAX_EVENT_CHARS,
        onEvent: (event) => {
          const name = event.event ?? 'message';
          if (!NO_REREAD.has(name)) onChange(name);
          else if (name === 'preview' && onPreview) {
            const preview = previewFrame(event.data);
            if (preview) onPreview(preview);
          }
        },
        onError: (err) => {
          if (err.type === 'max-buffer-size-exceeded') overflow = true;
        },
      });
      const decoder = new StringDecoder('utf8');
      let tail = '';
      for await (const chunk of body) {
        const text = decoder.write(chunk as Buffer);
        if (text) tail = text;
        parser.feed(text);
        if (overflow) {
          if (!closed) notice(`the event stream sent an event longer than ${MAX_EVENT_CHARS / (1 << 20)} MiB without ending it; following the job by polling only`);
          return;
        }
      }
      // A lone CR at the very end did end its line (and maybe the event); the parser is still
      // waiting to see whether an LF follows.
      if (tail.endsWith('\r')) parser.feed('\n');
      if (!closed) debug('* the event stream ended; polling only');
    } catch (err) {
      if (!closed) debug(`* the event stream is unavailable (${(err as Error).message}); polling only`);
    } finally {
      if (body) discard(body);
      if (!open.shared) await client.http.close();
    }
  })();
  return {
    done,
    close() {
      closed = true;
      controller.abort();
      if (body) discard(body);
    },
  };
}
