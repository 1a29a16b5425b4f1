// The progress display off a terminal (or where it cannot animate): one plain line per change,
// never the same line twice. Kept apart from the spinner (render/progress) so that commands which
// show progress only as lines do not load ora and its dependencies.
import type { IOStreams } from './io.js';
import type { ProgressDisplay } from './progress-display.js';
import { sanitizeLine } from '../util/sanitize.js';

export class LineDisplay implements ProgressDisplay {
  private last = '';
  /** The text last given, before sanitizing: a follower repeats it for most of its messages. */
  private lastGiven: string | undefined;
  constructor(private readonly io: IOStreams, initial: string) {
    this.update(initial);
  }
  update(text: string): void {
    if (text === this.lastGiven) return;
    this.lastGiven = text;
    const line = sanitizeLines(text);
    if (line === this.last) return;
    this.last = line;
    this.io.info(line);
  }
  log(line: string): void {
    this.io.info(sanitizeLine(line));
  }
  succeed(text: string): void {
    this.io.info(sanitizeLine(text));
  }
  fail(text: string): void {
    this.io.warn(sanitizeLine(text));
  }
  showPicture(): void {}
  pictureRows(): number {
    return 0;
  }
  stop(): void {}
}

/** ProgressDisplay may span a few lines (one per transfer): each sanitized, the breaks kept. */
export function sanitizeLines(text: string): string {
  return text.split('\n').map(sanitizeLine).join('\n');
}
