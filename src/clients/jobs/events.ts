// Reads a job's `urls.events` (server-sent events) as the published contract defines them:
// `status` {status, queue_position} (not a Job), `progress` a complete Progress snapshot,
// `preview` {node_id, content_type, data_base64}, `output` one Output (a hint: the job stays the
// truth), `log` (reserved, not sent yet); no `id:` lines and no resume. Every payload is checked
// before a caller sees it; one that does not fit is skipped. The listener says how the stream
// ended (the follower opens a stream that ended or broke again, and polls meanwhile): a 429
// `too_many_streams` or a 501 `not_implemented` is said in one line, the rest only with --verbose.
// A line or event longer than MAX_EVENT_CHARS (a server that never ends its line) is not buffered
// further: the stream is closed, with one line said, and polling goes on.
import { createParser } from 'eventsource-parser';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { ApiError } from '../../errors.js';
import type { FetchedJob, JobsClient } from './client.js';
import type { JobProgress, StatusEvent } from '../../protocol/jobs.js';
import { isRecord } from '../shared/response-check.js';

export const MAX_EVENT_CHARS = 1 << 20;

/**
 * How a stream ended: `ended` (the server ended it), `broken` (it failed or never opened),
 * `refused` (a refusal on purpose, 429 or 501, or an answer that is no event stream: opening it
 * again would not help), `closed` (by the caller).
 */
export type StreamEnd = 'ended' | 'broken' | 'refused' | 'closed';

export interface EventListener {
  /** Resolves when the stream is over, with how it ended. */
  readonly done: Promise<StreamEnd>;
  close(): void;
}

/**
 * Builds a client whose requests end when `signal` aborts (the stream has its own lifetime), closed
 * when the stream is over; a `shared` one (many streams over one client, as a batch has) is kept.
 */
export type OpenClient = ((signal: AbortSignal) => JobsClient) & { shared?: boolean };

/** How the listener speaks: `debug` for --verbose, `say` for the one line a person should read. */
export interface StreamVoice {
  debug: (line: string) => void;
  say: (line: string) => void;
}

/** Ends a body nobody reads any more; undici reports that as an error, which no one needs to hear. */
function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/** A preview picture the stream carried (`PreviewEvent`), decoded. */
export interface PreviewFrame {
  node: string;
  contentType: string;
  bytes: Buffer;
}

/** What a follower hears from the stream, each payload checked. */
export interface JobEventHandlers {
  status(event: StatusEvent): void;
  progress(progress: JobProgress): void;
  preview(frame: PreviewFrame): void;
  /** Any other event that may mean the job changed (`output`, names the contract does not list). */
  other(name: string): void;
}

function parsed(data: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isOptional = (v: unknown, type: 'string' | 'number') => v === undefined || v === null || typeof v === type;

/** A `status` payload; a whole Job (older servers sent one) fits too. */
export function statusEvent(data: string): StatusEvent | undefined {
  const v = parsed(data);
  if (!v || typeof v.status !== 'string') return undefined;
  return { status: v.status, queue_position: isCount(v.queue_position) ? v.queue_position : null };
}

/** A `progress` payload: a complete snapshot with its required numbers, the optional fields of the right types. */
export function progressEvent(data: string): JobProgress | undefined {
  const v = parsed(data);
  if (!v || !isCount(v.value) || !isCount(v.nodes_done) || !isCount(v.nodes_total)) return undefined;
  for (const key of ['current_node', 'current_node_class', 'message'] as const) if (!isOptional(v[key], 'string')) return undefined;
  for (const key of ['step', 'steps'] as const) if (!isOptional(v[key], 'number')) return undefined;
  return v as unknown as JobProgress;
}

/** A `preview` payload's picture; undefined when it carries none this client can read. */
export function previewFrame(data: string): PreviewFrame | undefined {
  const v = parsed(data);
  if (!v || typeof v.data_base64 !== 'string' || v.data_base64 === '') return undefined;
  const bytes = Buffer.from(v.data_base64, 'base64');
  if (bytes.length === 0) return undefined;
  return { node: typeof v.node_id === 'string' ? v.node_id : '', contentType: typeof v.content_type === 'string' ? v.content_type : '', bytes };
}

/** Hands one raw event to the handler of its name; a payload that does not fit is skipped (--verbose says so). */
export function dispatchJobEvent(name: string, data: string, handlers: JobEventHandlers, debug: (line: string) => void): void {
  const skipped = () => debug(`* skipped a ${name} event that does not fit the published payload`);
  switch (name) {
    case 'status': {
      const event = statusEvent(data);
      return event ? handlers.status(event) : skipped();
    }
    case 'progress': {
      const progress = progressEvent(data);
      return progress ? handlers.progress(progress) : skipped();
    }
    case 'preview': {
      const frame = previewFrame(data);
      return frame ? handlers.preview(frame) : skipped();
    }
    case 'log':
      return; // reserved by the contract; the log is read from the job once it has ended
    default:
      return handlers.other(name);
  }
}

/** The one line for a stream the service refused on purpose; undefined for any other failure. */
export function refusalLine(err: unknown): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  if (err.status === 429) return `the service has too many event streams open for this caller (${err.code}); following the job by polling, without live progress`;
  if (err.status === 501) return `this service does not stream job events (${err.code}); following the job by polling`;
  return undefined;
}

/** Reads the job's event stream, handing each event's name and raw data to `onEvent`. */
export function listenToEvents(open: OpenClient, job: FetchedJob, onEvent: (name: string, data: string) => void, voice: StreamVoice): EventListener {
  const controller = new AbortController();
  const client = open(controller.signal);
  let body: Readable | undefined;
  let closed = false;
  const done = (async (): Promise<StreamEnd> => {
    try {
      const res = await client.events(job);
      body = res.body;
      if (closed) {
        discard(body);
        return 'closed';
      }
      const type = res.headers['content-type'] ?? '';
      if (!type.toLowerCase().startsWith('text/event-stream')) {
        discard(body);
        voice.debug(`* the event stream answered ${type || 'no content type'}, not text/event-stream; polling only`);
        return 'refused';
      }
      let overflow = false;
      const parser = createParser({
        maxBufferSize: MAX_EVENT_CHARS,
        onEvent: (event) => onEvent(event.event ?? 'message', event.data),
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
          if (closed) return 'closed';
          voice.say(`the event stream sent an event longer than ${MAX_EVENT_CHARS / (1 << 20)} MiB without ending it; following the job by polling only`);
          return 'refused';
        }
      }
      // A lone CR at the very end did end its line (and maybe the event); the parser is still
      // waiting to see whether an LF follows.
      if (tail.endsWith('\r')) parser.feed('\n');
      if (closed) return 'closed';
      voice.debug('* the event stream ended');
      return 'ended';
    } catch (err) {
      if (closed) return 'closed';
      const refused = refusalLine(err);
      if (refused) {
        voice.say(refused);
        return 'refused';
      }
      voice.debug(`* the event stream is unavailable (${(err as Error).message})`);
      return 'broken';
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

/** listenToEvents with each event checked and handed to its handler. */
export function listenToJob(open: OpenClient, job: FetchedJob, handlers: JobEventHandlers, voice: StreamVoice): EventListener {
  return listenToEvents(open, job, (name, data) => dispatchJobEvent(name, data, handlers, voice.debug), voice);
}
