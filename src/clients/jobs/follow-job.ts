// Follows a job to a terminal status. GET polling is the truth (every capability is reachable by
// polling); the event stream, when the job offers one, only wakes the poll early so changes show
// at once. A 429 or 503 from a poll backs off (Retry-After first) instead of ending the watch.
import { ApiError } from '../../errors.js';
import { backoffDelay } from '../../http/retry.js';
import type { FetchedJob, JobsClient } from './client.js';
import { listenForChanges, type EventListener, type OpenClient, type PreviewFrame } from './events.js';
import { isTerminal, type Job } from '../../protocol/jobs.js';

export interface FollowJobOptions {
  /** Poll interval in ms (the contract's default is 1 s). */
  intervalMs: number;
  /** Aborts the wait (Ctrl-C, --timeout); its reason is thrown. Absent: wait until the job ends. */
  signal?: AbortSignal;
  /** A client for the event stream with its own lifetime; absent: polling only. */
  openEvents?: OpenClient;
  /** Shortest gap between two reads woken by events. */
  minGapMs?: number;
  /** The events that wake a read (default: every event that can change the job). */
  wakeOn?: (event: string) => boolean;
  /**
   * A first read this long after the start, before the event stream is opened: a quick job is
   * over by then and never needs a stream (a batch of many quick jobs saves a request each).
   */
  firstReadMs?: number;
  debug?: (line: string) => void;
  /** One line for the person watching (the event stream given up on); absent: debug. */
  notice?: (line: string) => void;
  /** Preview pictures the event stream carries (polling has none). */
  onPreview?: (preview: PreviewFrame) => void;
}

const MAX_BACKOFF_MS = 30_000;

/**
 * What makes two snapshots different for a watcher: everything but the signed URLs of outputs,
 * which a deployment may re-sign on every read.
 */
export function changeKey(job: Job): string {
  return JSON.stringify({ ...job, outputs: job.outputs.map(({ url: _url, url_expires_at: _expires, ...rest }) => rest) });
}

/** Yields the starting snapshot, then every changed one; the last yielded is terminal. */
const NEVER_ABORTED = new AbortController().signal;

export async function* followJob(client: JobsClient, start: FetchedJob, options: FollowJobOptions): AsyncGenerator<FetchedJob> {
  const debug = options.debug ?? (() => {});
  let current = start;
  let lastKey = changeKey(current.job);
  yield current;
  if (isTerminal(current.job.status)) return;

  const waker = new Waker(options.minGapMs ?? 100);
  let listener: EventListener | undefined;
  const listen = () => {
    if (options.openEvents && current.job.urls.events) listener = listenForChanges(options.openEvents, current, (name) => (options.wakeOn?.(name) ?? true) && waker.wake(name), debug, options.notice, options.onPreview);
  };
  if (options.firstReadMs === undefined) listen();
  let delay = options.firstReadMs ?? options.intervalMs;
  let throttled = 0;
  try {
    for (;;) {
      await waker.wait(delay, options.signal ?? NEVER_ABORTED);
      try {
        current = await client.refresh(current);
      } catch (err) {
        if (!(err instanceof ApiError) || (err.status !== 429 && err.status !== 503)) throw err;
        delay = Math.min(MAX_BACKOFF_MS, Math.max(err.retryAfterSeconds !== undefined ? err.retryAfterSeconds * 1000 : 0, backoffDelay(throttled++)));
        debug(`* polling throttled (${err.code}); next read in ${delay} ms`);
        continue;
      }
      throttled = 0;
      delay = options.intervalMs;
      waker.readDone();
      const key = changeKey(current.job);
      if (key !== lastKey) {
        lastKey = key;
        yield current;
      }
      if (isTerminal(current.job.status)) return;
      if (!listener) listen();
    }
  } finally {
    listener?.close();
  }
}

/** A sleep that an event can cut short, no sooner than `minGapMs` after the last read. */
class Waker {
  private pending = false;
  private lastRead = 0;
  private resolveSleep?: () => void;

  constructor(private readonly minGapMs: number) {}

  wake(_event: string): void {
    this.pending = true;
    this.resolveSleep?.();
  }

  readDone(): void {
    this.lastRead = Date.now();
  }

  async wait(ms: number, signal: AbortSignal): Promise<void> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (this.pending) {
        const gap = this.lastRead + this.minGapMs - Date.now();
        if (gap > 0) await this.sleep(Math.min(gap, deadline - Date.now()), signal, false);
        break;
      }
      await this.sleep(deadline - Date.now(), signal, true);
    }
    this.pending = false;
  }

  private sleep(ms: number, signal: AbortSignal, wakeable: boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const finish = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.resolveSleep = undefined;
        resolve();
      };
      const onAbort = () => {
        clearTimeout(timer);
        this.resolveSleep = undefined;
        reject(signal.reason);
      };
      const timer = setTimeout(finish, Math.max(0, ms));
      signal.addEventListener('abort', onAbort, { once: true });
      if (wakeable) this.resolveSleep = finish;
    });
  }
}
