// How a followed job shows (`jobs watch` and every --wait): a spinner on a terminal, one line per
// change otherwise, each output as it is committed, the latest preview picture under the line
// with --preview; with --json, NDJSON of the changed snapshots, then the outcome; the outputs
// --download saves as they move and once saved. Renders src/features/jobs/watch.ts and follow.ts.
import type { FollowReporter, TransferReporter } from '../../features/reporter.js';
import type { Watched } from '../../features/jobs/watch.js';
import { exitCodeFor } from '../../command-kit/jobs/exit-code.js';
import { isTerminal, type Job } from '../../protocol/jobs.js';
import type { IOStreams } from '../../render/io.js';
import { openProgressDisplay } from '../../render/open-progress.js';
import type { PreviewPictures } from '../../render/pictures/preview.js';
import type { ProgressDisplay } from '../../render/progress-display.js';
import { notice, transferReporterOn } from '../reporters.js';
import type { WatchJobOptions } from './options.js';
import { showSaved } from './saved-view.js';
import { outcomeLine, outputLine, progressLine, renderJobError } from './job-view.js';

export class JobFollowView implements FollowReporter<Job>, TransferReporter {
  private readonly seenOutputs = new Set<string>();
  readonly data?: (record: unknown) => void;
  readonly preview?: (image: Uint8Array) => void;

  private constructor(
    private readonly io: IOStreams,
    private readonly progressDisplay: ProgressDisplay | undefined,
    private readonly previews: PreviewPictures | null,
  ) {
    if (io.json) this.data = (job) => io.printJson(job, true);
    if (previews) this.preview = (image) => previews.offer(image);
  }

  /** The view of a waiting command's watch that starts at `start`. */
  static watching(io: IOStreams, start: Job, options: WatchJobOptions): Promise<JobFollowView> {
    return JobFollowView.open(io, start, { preview: options.preview, events: options.events });
  }

  /** The view of a follow that starts at `start`; `preview` asks for pictures, which come on the event stream only. */
  static async open(io: IOStreams, start: Job, options: { preview?: boolean; events: boolean }): Promise<JobFollowView> {
    const progress = io.json ? undefined : await openProgressDisplay(io, progressLine(start));
    // Opening previews may ask the terminal (a query, up to 300 ms for its answer): only when one can come.
    if (options.preview && !options.events) io.info('no preview pictures with --no-events: previews come on the event stream');
    const previews = options.preview && options.events && !isTerminal(start.status) ? await (await import('../../render/pictures/preview.js')).PreviewPictures.open(io, progress) : null;
    return new JobFollowView(io, progress, previews);
  }

  get verbose(): boolean {
    return this.io.verbose;
  }

  notice: FollowReporter<Job>['notice'] = (level, line) => notice(this.io, level, line);

  progress(job: Job): void {
    const display = this.progressDisplay;
    if (!display) return;
    for (const o of job.outputs) {
      if (this.seenOutputs.has(o.id)) continue;
      this.seenOutputs.add(o.id);
      display.log(outputLine(o));
    }
    display.update(progressLine(job));
  }

  transfer: TransferReporter['transfer'] = (start) => transferReporterOn(this.io).transfer(start);

  event(line: string): void {
    this.progressDisplay?.log(line);
  }

  stop(): void {
    this.progressDisplay?.stop();
  }

  /** The outcome: the last preview drawn, then the success or failure line, with the error's details. */
  async ended(job: Job): Promise<void> {
    await this.previews?.settled();
    const display = this.progressDisplay;
    if (!display) return;
    if (job.status === 'succeeded') display.succeed(outcomeLine(job));
    else display.fail(outcomeLine(job));
    // The outcome line already carries the error summary; the rest (traceback, node errors) follows.
    if (job.error) {
      const details = renderJobError(this.io, job.id, job.error, this.io.verbose, 'stderr', false);
      if (details.text) this.io.warn(details.text);
      for (const hint of details.hints) this.io.info(hint);
    }
  }
}

/** A waiting command's end: the outputs --download saved shown (their paths on stdout, unless the --json stream holds it), the exit code by the job's end. */
export async function showWatched(io: IOStreams, { last, saved }: Watched, options: WatchJobOptions): Promise<number> {
  const code = exitCodeFor(last.job.status, options.canceledExit);
  if (saved) await showSaved(io, last.job, saved, { toStdout: !io.json });
  return code;
}
