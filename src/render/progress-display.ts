// What a progress display offers: a live spinner (render/progress) or plain lines
// (render/line-display); a type of its own so that neither module needs the other for it.
import type { PaneContent } from './pictures/pane.js';

/** Where a picture can be kept in place under the progress line (a live spinner only). */
export interface ProgressPicture {
  showPicture(content: PaneContent): void;
  /** Rows a picture drawn now may take: at most `wanted`, fewer on a short terminal, 0 for none. */
  pictureRows(wanted: number): number;
}

export interface ProgressDisplay extends ProgressPicture {
  update(text: string): void;
  /** A permanent line above the spinner (an output committed, a note). */
  log(line: string): void;
  succeed(text: string): void;
  fail(text: string): void;
  stop(): void;
}
