// Which progress display a command gets: the spinner on a terminal that animates, else plain
// lines. Its own module, so that a command off a terminal never loads the spinner.
import type { IOStreams } from './io.js';
import { LineDisplay } from './line-display.js';
import type { ProgressDisplay } from './progress-display.js';

/**
 * The spinner on a terminal that animates, else plain lines. The spinner's module (ora and its
 * dependencies, ~30 ms of CPU and 7 MB to load) is imported only for the terminal: a transfer or
 * a prompt followed by a script never loads it.
 */
export async function openProgressDisplay(io: IOStreams, initial: string): Promise<ProgressDisplay> {
  if (!io.canAnimate) return new LineDisplay(io, initial);
  return (await import('./progress.js')).createProgressDisplay(io, initial);
}
