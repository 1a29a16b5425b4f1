// The latest preview of a running job, drawn in place under the progress line. Previews come
// faster than a terminal draws them: while one is being encoded, only the newest waiting one is
// kept. When pictures cannot be drawn, the reason is said once and previews are ignored.
import type { IOStreams } from '../io.js';
import type { ProgressPicture } from '../progress-display.js';
import { kittyDelete } from './kitty.js';
import { terminalPicture, type PictureTerminal } from './picture.js';
import { pictureSupport } from './support.js';

/** Previews are smaller than --show's thumbnails: they sit under a spinner that keeps running. */
const PREVIEW_BOX = { columns: 32, rows: 10 };
/** kitty image id of the preview, so each new one replaces the last. */
const PREVIEW_KITTY_ID = 1_000_771;

export class PreviewPictures {
  private busy = false;
  private waiting: Uint8Array | null = null;
  private drawing: Promise<void> = Promise.resolve();
  private failedOnce = false;

  private constructor(
    private readonly io: IOStreams,
    private readonly terminal: PictureTerminal,
    private readonly target: ProgressPicture,
  ) {}

  /** Null (after saying why on stderr) when this terminal or these flags get no pictures. */
  static async open(io: IOStreams, target: ProgressPicture | undefined): Promise<PreviewPictures | null> {
    const support = await pictureSupport(io, 'preview');
    if ('reason' in support || !target) {
      io.info('reason' in support ? support.reason : 'no preview pictures without a progress line');
      return null;
    }
    return new PreviewPictures(io, support.terminal, target);
  }

  /** A new preview (PNG or JPEG bytes). */
  offer(bytes: Uint8Array): void {
    if (this.busy) {
      this.waiting = bytes;
      return;
    }
    this.busy = true;
    this.drawing = this.draw(bytes);
  }

  /** Resolves when the preview being drawn (and the one waiting) are on the screen. */
  settled(): Promise<void> {
    return this.drawing;
  }

  private async draw(bytes: Uint8Array): Promise<void> {
    let next: Uint8Array | null = bytes;
    while (next) {
      try {
        // No taller than the terminal leaves under the spinner; on one too short for a row, none.
        const rows = this.target.pictureRows(PREVIEW_BOX.rows);
        if (rows > 0) {
          const picture = await terminalPicture(next, this.terminal, { ...PREVIEW_BOX, rows }, { kittyId: PREVIEW_KITTY_ID });
          this.target.showPicture({ sequence: picture.sequence, rows: picture.rows, remove: this.terminal.protocol === 'kitty' ? kittyDelete(PREVIEW_KITTY_ID) : undefined });
        }
      } catch (err) {
        if (!this.failedOnce) this.io.debug(`a preview could not be drawn: ${(err as Error).message}`);
        this.failedOnce = true;
      }
      next = this.waiting;
      this.waiting = null;
    }
    this.busy = false;
  }
}
