// How a followed v1 prompt shows (`legacy watch`, `legacy status --wait`, `legacy prompt --wait`
// and --ws): a spinner (or one line per change) with the status, or the executing node and step;
// events above it; the latest preview picture under it with --preview; with --json the prompt's
// messages as NDJSON. Renders src/features/legacy/{follow-prompt,poll-prompt}.ts.
import type { FollowReporter } from '../../features/reporter.js';
import type { PromptProgress } from '../../features/legacy/prompt-progress.js';
import { isV1Success } from '../../protocol/legacy.js';
import type { IOStreams } from '../../render/io.js';
import { openProgressDisplay } from '../../render/open-progress.js';
import type { PreviewPictures } from '../../render/pictures/preview.js';
import type { ProgressDisplay } from '../../render/progress-display.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { notice } from '../reporters.js';

/** The live line's text for what the socket told, before sanitizing. */
function liveText(state: Extract<PromptProgress, { kind: 'live' }>): string {
  const id = state.promptId;
  if (state.finishing) return `prompt ${id}: finishing`;
  if (!state.node) return state.status ? `prompt ${id}: ${state.status}` : `prompt ${id}: waiting`;
  const cls = state.classType !== undefined ? ` (${state.classType})` : '';
  const detail = state.step ? ` step ${state.step.value}/${state.step.max}` : state.text ? ` · ${sanitizeLine(state.text).slice(0, 80)}` : '';
  return `prompt ${id}: node ${state.node}${cls}${detail}`;
}

export class PromptView implements FollowReporter<PromptProgress> {
  /** The live line's last text, raw and sanitized: most messages change nothing it shows. */
  private last = { raw: '', line: '' };
  readonly data?: (record: unknown) => void;
  readonly preview?: (image: Uint8Array) => void;

  private constructor(
    private readonly io: IOStreams,
    private readonly promptId: string,
    private readonly display: ProgressDisplay,
    private readonly pictures: PreviewPictures | null,
  ) {
    if (io.json) this.data = (record) => io.printJson(record, true);
    if (pictures) this.preview = (image) => pictures.offer(image);
  }

  /** `waiting`: the first line's words (`checking` for a poll, `waiting for the first message` for the socket). */
  static async open(io: IOStreams, promptId: string, waiting: string, preview = false): Promise<PromptView> {
    const display = await openProgressDisplay(io, `prompt ${promptId}: ${waiting}`);
    const pictures = preview ? await (await import('../../render/pictures/preview.js')).PreviewPictures.open(io, display) : null;
    return new PromptView(io, promptId, display, pictures);
  }

  get verbose(): boolean {
    return this.io.verbose;
  }

  notice: FollowReporter<PromptProgress>['notice'] = (level, line) => notice(this.io, level, line);

  /**
   * The line is sanitized again only when its raw text changed. It is handed to the display every
   * time, which draws it only when it differs from what is shown (a retry note may have replaced it).
   */
  progress(state: PromptProgress): void {
    if (state.kind === 'polled') return this.display.update(`prompt ${state.promptId}: ${sanitizeLine(state.status)}`);
    const raw = liveText(state);
    if (raw !== this.last.raw) this.last = { raw, line: sanitizeLine(raw) };
    this.display.update(this.last.line);
  }

  event(line: string): void {
    this.display.log(line);
  }

  stop(): void {
    this.display.stop();
  }

  /** One line ends the run: the success line here, or the error the command reports for any other ending (the preview being drawn lands under the line first). */
  async end(status: string): Promise<void> {
    await this.pictures?.settled();
    if (isV1Success(status)) this.display.succeed(`prompt ${this.promptId}: ${sanitizeLine(status)}`);
    else this.display.stop();
  }
}
