// Progress of byte transfers for people: "2.1 GiB of 3.0 GiB · 410 MiB/s · 2 s left". Fed by
// progress events (name, bytes so far, total) from the download or upload code; shows one line
// per transfer for a few, one total for many. On a terminal the line is redrawn in place (the
// spinner of render/progress); elsewhere a plain line at most every PLAIN_EVERY_MS.
import { formatBytes } from '../util/byte-count.js';
import type { IOStreams } from './io.js';
import { openProgressDisplay } from './open-progress.js';
import type { ProgressDisplay } from './progress-display.js';

export interface TransferSample {
  name: string;
  bytes: number;
  total: number | null;
}

/** Transfers of a file at least this large are shown; a smaller one is over before a line could be read. */
export const SHOWN_FROM_BYTES = 8 << 20;
/** Above this many transfers at once, one total line instead of one line each. */
const MAX_LINES = 3;
const REDRAW_MS = 100;
const PLAIN_EVERY_MS = 2000;
/** The rate is measured over this much recent time, so it follows changes but does not flicker. */
const RATE_WINDOW_MS = 3000;

/** "2 s left", "3 min left", "1 h 5 min left". */
export function formatEta(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `${s} s left`;
  if (s < 3600) return `${Math.round(s / 60)} min left`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min left`;
}

/** "2.1 GiB of 3.0 GiB · 410 MiB/s · 2 s left"; parts that are unknown are left out. */
export function transferText(bytes: number, total: number | null, bytesPerSecond: number | null): string {
  const parts = [total === null ? formatBytes(bytes) : `${formatBytes(bytes)} of ${formatBytes(total)}`];
  if (bytesPerSecond !== null && bytesPerSecond > 0) {
    parts.push(`${formatBytes(Math.round(bytesPerSecond))}/s`);
    if (total !== null && total > bytes) parts.push(formatEta((total - bytes) / bytesPerSecond));
  }
  return parts.join(' · ');
}

/** Bytes per second over the last RATE_WINDOW_MS; null until there is something to measure. */
export class RateMeter {
  private readonly points: Array<[number, number]> = [];
  add(at: number, bytes: number): void {
    this.points.push([at, bytes]);
    while (this.points.length > 2 && at - this.points[0]![0] > RATE_WINDOW_MS) this.points.shift();
  }
  rate(): number | null {
    if (this.points.length < 2) return null;
    const [t0, b0] = this.points[0]!;
    const [t1, b1] = this.points[this.points.length - 1]!;
    return t1 > t0 ? ((b1 - b0) * 1000) / (t1 - t0) : null;
  }
}

export interface TransferDisplayOptions {
  /** What is happening: "downloading", "uploading". */
  verb: string;
  /** How many transfers there will be, and their total size when known. */
  count: number;
  totalBytes: number | null;
  now?: () => number;
}

/** Turns progress events into the progress line(s). */
export class TransferDisplay {
  private readonly now: () => number;
  private readonly current = new Map<string, TransferSample>();
  private readonly meters = new Map<string, RateMeter>();
  private readonly totalMeter = new RateMeter();
  private lastDraw = 0;

  static async open(io: IOStreams, options: TransferDisplayOptions): Promise<TransferDisplay> {
    const progress = await openProgressDisplay(io, `${options.verb} ${options.count === 1 ? '1 file' : `${options.count} files`}`);
    return new TransferDisplay(io, options, progress);
  }

  private constructor(
    private readonly io: IOStreams,
    private readonly options: TransferDisplayOptions,
    private readonly progress: ProgressDisplay,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** One progress event; redraws at most every REDRAW_MS (PLAIN_EVERY_MS without a terminal). */
  update(sample: TransferSample): void {
    const at = this.now();
    this.current.set(sample.name, sample);
    let meter = this.meters.get(sample.name);
    if (!meter) this.meters.set(sample.name, (meter = new RateMeter()));
    meter.add(at, sample.bytes);
    this.totalMeter.add(at, this.sum());
    if (at - this.lastDraw < (this.io.canAnimate ? REDRAW_MS : PLAIN_EVERY_MS)) return;
    this.lastDraw = at;
    this.progress.update(this.text());
  }

  /** The line as it stands (the spinner shows it; tests read it). */
  text(): string {
    const active = [...this.current.values()].filter((s) => s.total === null || s.bytes < s.total);
    if (this.options.count > MAX_LINES || active.length > MAX_LINES) {
      // Every transfer seen that is not active has finished.
      const done = `${this.current.size - active.length} of ${this.options.count} files`;
      return `${this.options.verb} ${done} · ${transferText(this.sum(), this.options.totalBytes, this.totalMeter.rate())}`;
    }
    const lines = active.map((s) => `${s.name}  ${transferText(s.bytes, s.total, this.meters.get(s.name)!.rate())}`);
    return `${this.options.verb} ${lines.join('\n  ') || '…'}`;
  }

  stop(): void {
    this.progress.stop();
  }

  private sum(): number {
    let total = 0;
    for (const s of this.current.values()) total += s.bytes;
    return total;
  }
}
