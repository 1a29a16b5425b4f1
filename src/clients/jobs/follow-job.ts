// Follows a job to a terminal status. GET polling is the truth for the status, the outputs and the
// verdict (every capability is reachable by polling). A stream that ends or breaks before the job
// has ended (the reference server's can end on `running` or `expired`) wakes a read and is opened
// again after REOPEN_DELAY_MS (doubling, MAX_REOPENS in a row); polling goes on all the while.
// The event stream, when the job offers one, does two things: its `status`, `output` and unknown events wake the poll early, so changes show
// at once (a terminal `status` too: the verdict is always a read of the job, since the stream may
// say `expired` for a job that succeeded); and its `progress` snapshots are the live progress,
// merged into the snapshots yielded between polls. A polled job may carry no progress while it
// runs (`null`, or the reference server's constant {value 0, nodes 0/0}), so while the stream
// sends progress, polls never overwrite it; without one (none offered, refused, or over), a
// poll's progress is shown when it changed since the previous poll, so the stream's last snapshot
// stays until a poll knows something new. Progress is shown as it comes, never forced to grow
// (the reference server's value can go down when a node starts). A 429 or 503 from a poll backs
// off (Retry-After first) instead of ending the watch.
import { ApiError } from '../../errors.js';
import { backoffDelay } from '../../http/retry.js';
import type { FetchedJob, JobsClient } from './client.js';
import { listenToJob, type EventListener, type OpenClient, type PreviewFrame } from './events.js';
import { settleExpired } from './expired-race.js';
import { isTerminal, type Job, type JobProgress } from '../../protocol/jobs.js';
import { systemClock, type Clock } from '../../util/clock.js';

export interface FollowJobOptions {
  /** Poll interval in ms (the contract's default is 1 s). */
  intervalMs: number;
  /** Aborts the wait (Ctrl-C, --timeout); its reason is thrown. Absent: wait until the job ends. */
  signal?: AbortSignal;
  /** A client for the event stream with its own lifetime; absent: polling only. */
  openEvents?: OpenClient;
  /** Shortest gap between two reads woken by events, and between two snapshots of live progress. */
  minGapMs?: number;
  /**
   * The events the follow reacts to (default: all): `status`, `output` and unknown ones wake a
   * read; `progress` makes a new snapshot (and wakes a read while the job reads as queued). A
   * caller that needs no live progress (a batch) leaves `progress` out and pays nothing for it.
   */
  wakeOn?: (event: string) => boolean;
  /**
   * A first read this long after the start, before the event stream is opened: a quick job is
   * over by then and never needs a stream (a batch of many quick jobs saves a request each).
   */
  firstReadMs?: number;
  debug?: (line: string) => void;
  /** The one line a person should read (the stream refused or given up on); absent: debug. */
  notice?: (line: string) => void;
  /** Preview pictures the event stream carries (polling has none). */
  onPreview?: (preview: PreviewFrame) => void;
  /** The time the polls are paced by (default the system's; a unit test's own). */
  clock?: Clock;
}

const MAX_BACKOFF_MS = 30_000;
/** A stream that ends before its job is opened again after this (doubling each time), as the maker's clients do. */
export const REOPEN_DELAY_MS = 100;
/** Streams opened again in a row at most; one that lasted LONG_STREAM_MS starts the count afresh. */
export const MAX_REOPENS = 3;
const LONG_STREAM_MS = 5_000;
const NEVER_ABORTED = new AbortController().signal;

/**
 * What makes two snapshots different for a watcher: everything but the signed URLs of outputs,
 * which a deployment may re-sign on every read.
 */
export function changeKey(job: Job): string {
  return JSON.stringify({ ...job, outputs: job.outputs.map(({ url: _url, url_expires_at: _expires, ...rest }) => rest) });
}

/** The progress to show, for a job still under way: the stream's while it sends some, else the newest news. */
class LiveProgress {
  private lastPolled: string;
  private latest: JobProgress | null;
  private streaming = false;

  constructor(start: Job) {
    this.lastPolled = JSON.stringify(start.progress ?? null);
    this.latest = start.progress ?? null;
  }

  /** A poll's progress is news only when it changed since the previous poll, and no stream sends progress. */
  polled(job: Job): void {
    const key = JSON.stringify(job.progress ?? null);
    if (key === this.lastPolled) return;
    this.lastPolled = key;
    if (!this.streaming) this.latest = job.progress ?? null;
  }

  streamed(progress: JobProgress): void {
    this.streaming = true;
    this.latest = progress;
  }

  streamOver(): void {
    this.streaming = false;
  }

  /** The polled job with the live progress in it; a terminal job as the service sent it. */
  shown(polled: FetchedJob): FetchedJob {
    if (isTerminal(polled.job.status) || polled.job.progress === this.latest) return polled;
    return { ...polled, job: { ...polled.job, progress: this.latest } };
  }
}

/** Yields the starting snapshot, then every changed one (polled, or with new live progress); the last yielded is terminal. */
export async function* followJob(client: JobsClient, start: FetchedJob, options: FollowJobOptions): AsyncGenerator<FetchedJob> {
  const debug = options.debug ?? (() => {});
  const signal = options.signal ?? NEVER_ABORTED;
  let polled = start;
  let lastKey = changeKey(start.job);
  yield start;
  if (isTerminal(start.job.status)) return;

  const live = new LiveProgress(start.job);
  const clock = options.clock ?? systemClock;
  const waker = new Waker(options.minGapMs ?? 100, clock);
  const wakes = (name: string) => options.wakeOn?.(name) ?? true;
  let listener: EventListener | undefined;
  const stop = new AbortController();
  let reopens = 0;
  const listen = () => {
    if (!options.openEvents || !polled.job.urls.events) return;
    const opened = clock.now();
    let said: string | undefined;
    listener = listenToJob(options.openEvents, polled, {
      status: (event) => {
        said = event.status;
        if (wakes('status')) waker.wantRead();
      },
      progress: (progress) => {
        if (!wakes('progress')) return;
        live.streamed(progress);
        waker.wantShow();
        // A stream may say nothing when a queued job starts: its progress is the sign.
        if (polled.job.status === 'queued') waker.wantRead();
      },
      preview: (frame) => options.onPreview?.(frame),
      other: (name) => wakes(name) && waker.wantRead(),
    }, { debug, say: options.notice ?? debug });
    void listener.done.then(async (end) => {
      live.streamOver();
      // A stream that said the job ended is not opened again: the read it woke says the rest.
      if (stop.signal.aborted || (end !== 'ended' && end !== 'broken') || (said !== undefined && said !== 'expired' && isTerminal(said))) return;
      // A stream may end on a status that is not the job's (`running`, `expired`): the job read
      // after it is the truth, and a stream opened again keeps the progress coming.
      waker.wantRead();
      if (clock.now() - opened >= LONG_STREAM_MS) reopens = 0;
      if (reopens >= MAX_REOPENS) return debug('* the event stream keeps ending before the job does; polling only');
      const delay = REOPEN_DELAY_MS * 2 ** reopens++;
      try {
        await clock.sleep(delay, stop.signal);
      } catch {
        return; // the follow is over
      }
      if (isTerminal(polled.job.status)) return;
      debug(`* the event stream ended before the job did; opening it again after ${delay} ms`);
      listen();
    });
  };
  if (options.firstReadMs === undefined) listen();
  let readAt = clock.now() + (options.firstReadMs ?? options.intervalMs);
  let throttled = 0;
  try {
    for (;;) {
      if ((await waker.next(readAt, signal)) === 'read') {
        try {
          polled = await client.refresh(polled);
          polled = await settleExpired(polled, () => client.refresh(polled), signal);
        } catch (err) {
          if (!(err instanceof ApiError) || (err.status !== 429 && err.status !== 503)) throw err;
          const delay = Math.min(MAX_BACKOFF_MS, Math.max(err.retryAfterSeconds !== undefined ? err.retryAfterSeconds * 1000 : 0, backoffDelay(throttled++)));
          debug(`* polling throttled (${err.code}); next read in ${delay} ms`);
          readAt = clock.now() + delay;
          continue;
        }
        throttled = 0;
        readAt = clock.now() + options.intervalMs;
        waker.readDone();
        live.polled(polled.job);
      }
      waker.shown();
      const shown = live.shown(polled);
      const key = changeKey(shown.job);
      if (key !== lastKey) {
        lastKey = key;
        yield shown;
      }
      if (isTerminal(polled.job.status)) return;
      if (!listener) listen();
    }
  } finally {
    stop.abort();
    listener?.close();
  }
}

/**
 * The follower's clock: a read at `readAt`, or sooner when an event asks for one (no sooner than
 * `minGapMs` after the last read); a snapshot of new live progress no more often than `minGapMs`.
 */
class Waker {
  private readWanted = false;
  private showWanted = false;
  private lastRead = 0;
  private lastShown = 0;
  private wake?: AbortController;

  constructor(
    private readonly minGapMs: number,
    private readonly clock: Clock,
  ) {}

  wantRead(): void {
    this.readWanted = true;
    this.wake?.abort();
  }

  wantShow(): void {
    this.showWanted = true;
    this.wake?.abort();
  }

  readDone(): void {
    this.lastRead = this.clock.now();
  }

  shown(): void {
    this.lastShown = this.clock.now();
    this.showWanted = false;
  }

  /** 'read' when a read is due, 'show' when only new live progress is. */
  async next(readAt: number, signal: AbortSignal): Promise<'read' | 'show'> {
    for (;;) {
      const now = this.clock.now();
      const readDue = this.readWanted ? Math.min(readAt, this.lastRead + this.minGapMs) : readAt;
      if (readDue <= now) {
        // Cleared as the read starts: an event during the read asks for the next one.
        this.readWanted = false;
        return 'read';
      }
      const showDue = this.showWanted ? this.lastShown + this.minGapMs : Infinity;
      if (showDue <= now) return 'show';
      await this.sleep(Math.min(readDue, showDue) - now, signal);
    }
  }

  /** The clock's sleep, cut short (resolved) when an event asks for a read or a snapshot; rejects with the signal's reason. */
  private sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const wake = (this.wake = new AbortController());
    const onAbort = () => wake.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    return this.clock
      .sleep(Math.max(0, ms), wake.signal)
      .catch(() => {
        if (signal.aborted) throw signal.reason;
      })
      .finally(() => {
        signal.removeEventListener('abort', onAbort);
        this.wake = undefined;
      });
  }
}
