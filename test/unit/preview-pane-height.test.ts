// The preview picture under the spinner is no taller than the terminal leaves: on a short terminal
// a picture of the usual 10 rows pushed the spinner off the top. Its height is capped to the
// terminal's rows less the spinner's lines and the spare row; with no height known, it keeps the
// usual size.
import { describe, expect, it } from 'vitest';
import { paneRows } from '../../src/render/pictures/pane.js';
import { createProgressDisplay } from '../../src/render/progress.js';
import { IOStreams } from '../../src/render/io.js';
import { testIO } from '../helpers/test-io.js';

describe('paneRows', () => {
  it('keeps the wanted rows where they fit with the spinner and the spare row', () => {
    expect(paneRows(10, 1, 50)).toBe(10);
    expect(paneRows(10, 1, 12)).toBe(10);
  });

  it('caps them to the terminal less the spinner lines and one spare row', () => {
    expect(paneRows(10, 1, 11)).toBe(9);
    expect(paneRows(10, 1, 8)).toBe(6);
    expect(paneRows(10, 3, 8)).toBe(4);
    // A spinner counts as at least one line (the pane draws under one).
    expect(paneRows(10, 0, 8)).toBe(6);
  });

  it('gives no rows when not one fits', () => {
    expect(paneRows(10, 1, 3)).toBe(1);
    expect(paneRows(10, 1, 2)).toBe(0);
    expect(paneRows(10, 4, 4)).toBe(0);
  });

  it('keeps the wanted rows when the height is not known (undefined, or 0 from a pty with no window size)', () => {
    expect(paneRows(10, 1, undefined)).toBe(10);
    expect(paneRows(10, 1, 0)).toBe(10);
  });
});

describe('the spinner tells the preview how many rows it may take', () => {
  async function display(rows: number) {
    const io = testIO({ stderrTTY: true, rows });
    return createProgressDisplay(await IOStreams.open({ ...io, env: { TERM: 'xterm-256color' } }), 'running');
  }

  it('from the stream\'s rows and the spinner\'s current lines', async () => {
    const spinner = await display(8);
    try {
      expect(spinner.pictureRows(10)).toBe(6);
      spinner.update('downloading\n  a.png\n  b.png');
      expect(spinner.pictureRows(10)).toBe(4);
    } finally {
      spinner.stop();
    }
    const tall = await display(50);
    try {
      expect(tall.pictureRows(10)).toBe(10);
    } finally {
      tall.stop();
    }
  });

  it('off a terminal there is no picture at all', () => {
    const io = testIO();
    expect(createProgressDisplay(new IOStreams({ ...io, env: {} }), 'running').pictureRows(10)).toBe(0);
  });
});
