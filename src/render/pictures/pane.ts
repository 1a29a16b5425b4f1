// A picture kept in place under the progress line(s): drawn into rows reserved below the
// spinner, the cursor brought back to the spinner (which ora redraws without touching the rows
// below it), and redrawn when a line is logged above or the spinner's height changes. At the end
// the picture stays and the cursor moves past it; on an interruption it is erased.
export interface PaneContent {
  sequence: string;
  rows: number;
  /** What removes the picture beyond erasing its rows (kitty keeps images off the text grid: delete by id). */
  remove?: string;
}

/**
 * The rows a picture may take under `spinnerLines` lines: `wanted`, or fewer on a terminal of
 * `terminalRows` too short for the spinner, the picture and the spare row together (the reserved
 * rows would scroll the spinner off the screen); 0 when not one row fits. Height unknown: `wanted`.
 */
export function paneRows(wanted: number, spinnerLines: number, terminalRows: number | undefined): number {
  if (terminalRows === undefined || !(terminalRows > 0)) return wanted;
  return Math.max(0, Math.min(wanted, terminalRows - Math.max(1, spinnerLines) - 1));
}

export class PicturePane {
  private content: PaneContent | null = null;
  /** Spinner lines above the picture when it was drawn; 0 when nothing is on the screen. */
  private drawnBelow = 0;

  get showing(): boolean {
    return this.content !== null;
  }

  /** Replaces the picture; returns what draws it, the cursor at column 0 of the first spinner line. */
  set(content: PaneContent, spinnerLines: number): string {
    const erase = this.erase();
    this.content = content;
    return erase + this.draw(spinnerLines);
  }

  /** Draws the current picture under `spinnerLines` lines; the cursor ends where it started. */
  draw(spinnerLines: number): string {
    if (!this.content) return '';
    const lines = Math.max(1, spinnerLines);
    // One row to spare: a terminal may scroll once when an image ends on the last row.
    const reserve = lines + this.content.rows;
    this.drawnBelow = lines;
    return `${'\n'.repeat(reserve)}\x1b[${reserve}A\x1b7\x1b[${lines}B${this.content.sequence}\x1b8`;
  }

  /** Removes the picture from the screen (the cursor at column 0 of the first spinner line). */
  erase(): string {
    if (!this.content || this.drawnBelow === 0) return '';
    this.drawnBelow = 0;
    return `\x1b[J${this.content.remove ?? ''}`;
  }

  /** After the final one-line message (the cursor at the start of the next line): past the picture. */
  leave(): string {
    if (!this.content || this.drawnBelow === 0) return '';
    const down = this.drawnBelow - 1 + this.content.rows;
    this.drawnBelow = 0;
    this.content = null;
    return `\x1b[${down}B`;
  }
}
