// Progress on stderr: an ora spinner redrawn in place on a terminal; otherwise one plain line
// per change (never the same line twice), and nothing at all with --quiet.
import ora, { type Ora } from 'ora';
import type { IOStreams } from './io.js';
import { sanitizeLine } from '../util/sanitize.js';
import { PicturePane, paneRows, type PaneContent } from './pictures/pane.js';
import type { ProgressDisplay } from './progress-display.js';
import { LineDisplay, sanitizeLines } from './line-display.js';

export function createProgressDisplay(io: IOStreams, initial: string): ProgressDisplay {
  // A terminal that reports 0 columns (a pty with no window size) sends ora into an endless clear loop.
  if (io.canAnimate && ((io.stderr as NodeJS.WriteStream).columns ?? 80) > 0) return new SpinnerDisplay(io, initial);
  return new LineDisplay(io, initial);
}

/** Columns the terminal's echo of Ctrl-C (`^C`) takes after the spinner's line. */
const CTRL_C_ECHO = 2;

class SpinnerDisplay implements ProgressDisplay {
  private readonly spinner: Ora;
  // ora keeps its stream private, so log() writes through this one.
  private readonly stream: NodeJS.WriteStream;
  private readonly color: boolean;
  private readonly style: IOStreams['errStyle'];
  private readonly releaseTransient: () => void;
  private readonly pane = new PicturePane();
  constructor(io: IOStreams, initial: string) {
    this.stream = io.stderr as NodeJS.WriteStream;
    // Follow the IO's decision (NO_COLOR, CLICOLOR=0, --no-color), never ora's log-symbols, which
    // decide once at import from the process's own CI/TERM.
    this.color = io.errStyle.level > 0;
    this.style = io.errStyle;
    // isEnabled: the IO has decided (canAnimate reads its own env, not the process's CI/TERM).
    this.spinner = ora({ text: this.fitted(initial), stream: this.stream, color: this.color ? 'cyan' : false, discardStdin: false, isEnabled: true }).start();
    // A retry wait replaces the spinner's text until the next update: the spinner never looks stuck.
    this.releaseTransient = io.takeTransient((line) => this.update(line));
  }
  /**
   * The text cut to the terminal's width (the spinner and a space before it): a line that wrapped
   * would be redrawn as two, and on a narrow terminal a long progress line did. Two columns more
   * stay free for the terminal's own echo of Ctrl-C (`^C`), written where the cursor stands: at
   * the end of a full line it wrapped, and the stop cleared the `^C` line, not the spinner's.
   */
  private fitted(text: string): string {
    const width = Math.max((this.stream.columns ?? 80) - 2 - CTRL_C_ECHO, 10);
    return sanitizeLines(text)
      .split('\n')
      .map((line) => ([...line].length <= width ? line : `${[...line].slice(0, width - 1).join('')}…`))
      .join('\n');
  }
  update(text: string): void {
    const next = this.fitted(text);
    const before = this.spinner.text;
    if (next === before) return;
    this.spinner.text = next;
    // A spinner that grew or shrank would cover its picture, or leave a gap above it.
    const lines = lineCount(next);
    if (this.pane.showing && lines !== lineCount(before)) this.redraw(() => this.pane.erase() + this.pane.draw(lines));
    // Shown at once, not at the next frame: a short transfer's bytes would otherwise never appear.
    else if (this.spinner.isSpinning) this.spinner.render();
  }
  log(line: string): void {
    this.redraw(() => this.pane.erase() + sanitizeLine(line) + '\n' + this.pane.draw(lineCount(this.spinner.text)));
  }
  showPicture(content: PaneContent): void {
    this.redraw(() => this.pane.set(content, lineCount(this.spinner.text)));
  }
  pictureRows(wanted: number): number {
    return paneRows(wanted, lineCount(this.spinner.text), this.stream.rows);
  }
  succeed(text: string): void {
    this.releaseTransient();
    // ✓ and ✗ as in every other confirmation (ora's own ✔ and ✖ differ), green and red with colour.
    this.spinner.stopAndPersist({ symbol: this.style.green('✓'), text: sanitizeLine(text) });
    this.stream.write(this.pane.leave());
  }
  fail(text: string): void {
    this.releaseTransient();
    this.spinner.stopAndPersist({ symbol: this.style.red('✗'), text: sanitizeLine(text) });
    this.stream.write(this.pane.leave());
  }
  stop(): void {
    this.releaseTransient();
    this.spinner.stop();
    this.stream.write(this.pane.erase());
  }
  /** Writes with the spinner cleared (the cursor at column 0 of its first line), then draws it again. */
  private redraw(bytes: () => string): void {
    this.spinner.clear();
    this.stream.write(bytes());
    this.spinner.render();
  }
}

/** How many lines the spinner's text takes (the picture goes under them). */
function lineCount(text: string): number {
  return text.split('\n').length;
}

