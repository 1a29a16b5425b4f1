// What a person sees while a batch runs (src/features/batch/batch.ts). On a terminal: one live
// line (done / running / queued / failed, rate, ETA) redrawn at most a few times a second, with
// only failed lines printed above it. Elsewhere (CI logs, pipes): one plain line per finished
// line, as before. The results go to stdout as they become printable.
import type { IOStreams } from '../../render/io.js';
import type { BatchReporter } from '../../features/batch/batch.js';
import { reporterOn } from '../reporters.js';
import type { ProgressDisplay } from '../../render/progress-display.js';
import { openProgressDisplay } from '../../render/open-progress.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { BatchResult } from '../../features/batch/runner.js';

const REDRAW_MS = 250;

/**
 * One stderr line about a finished line of the batch (people read these; scripts read the results).
 * A word already said is not said again: a line stopped by Ctrl-C reads "line 3: interrupted", not
 * "interrupted: interrupted: interrupted" (its status, its error's code and message).
 */
export function finishedLineText(result: BatchResult): string {
  const job = result.job_id ? `job ${result.job_id} ` : '';
  const outputs = result.outputs.length ? ` (${result.outputs.length} output${result.outputs.length === 1 ? '' : 's'})` : '';
  const said = [result.status];
  for (const word of result.error ? [result.error.code, result.error.message] : []) if (word && !said.includes(word)) said.push(word);
  const [status, ...why] = said;
  return sanitizeLine(`line ${result.index}: ${job}${status}${outputs}${why.map((w) => `: ${w}`).join('')}`);
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** The live line's text (pure, for tests). */
export function liveLine(c: { total: number; done: number; failed: number; running: number; elapsedMs: number }): string {
  const finished = c.done + c.failed;
  const rate = c.elapsedMs > 0 ? finished / (c.elapsedMs / 1000) : 0;
  const queued = Math.max(0, c.total - finished - c.running);
  const eta = rate > 0 ? duration(queued / rate + c.running / rate) : '?';
  return `batch: ${c.done}/${c.total} done, ${c.running} running, ${queued} queued, ${c.failed} failed · ${rate.toFixed(1)} jobs/s · ETA ${eta}`;
}

export class BatchProgress {
  private live?: ProgressDisplay;
  private readonly started = Date.now();
  private lastDraw = 0;
  done = 0;
  failed = 0;

  private constructor(
    private readonly io: IOStreams,
    private readonly total: number,
    /** Lines in flight now. */
    private readonly running: () => number,
  ) {}

  /** The spinner code (ora) is loaded only for a terminal: a batch in CI never pays its memory. */
  static async start(io: IOStreams, total: number, running: () => number): Promise<BatchProgress> {
    const progress = new BatchProgress(io, total, running);
    if (io.canAnimate) progress.live = await openProgressDisplay(io, progress.text());
    return progress;
  }

  private text(): string {
    return liveLine({ total: this.total, done: this.done, failed: this.failed, running: this.running(), elapsedMs: Date.now() - this.started });
  }

  private draw(force = false): void {
    if (!this.live) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    this.live.update(this.text());
  }

  /** A line that succeeded in an earlier run. */
  carried(): void {
    this.done++;
    this.draw();
  }

  /** A line finished in this run. */
  finished(result: BatchResult, ok: boolean): void {
    if (ok) this.done++;
    else this.failed++;
    if (!this.live) {
      if (result.status !== 'not_submitted') this.io.info(finishedLineText(result));
    } else if (!ok && result.status !== 'not_submitted') this.live.log(finishedLineText(result));
    this.draw();
  }

  /** A note above the live line (an endpoint set aside). */
  note(line: string): void {
    if (this.live) this.live.log(line);
    else this.io.warn(line);
  }

  stop(): void {
    this.draw(true);
    this.live?.stop();
  }
}

/** The batch's reporter on the command's streams. */
export function batchView(io: IOStreams): BatchReporter {
  let progress: BatchProgress | undefined;
  return {
    ...reporterOn(io),
    start: async (total, running) => {
      progress = await BatchProgress.start(io, total, running);
    },
    progress: (line) => (line.kind === 'carried' ? progress!.carried() : progress!.finished(line.result, line.ok)),
    event: (line) => progress!.note(line),
    data: (text) => void io.stdout.write(text),
    stop: () => progress!.stop(),
  };
}
