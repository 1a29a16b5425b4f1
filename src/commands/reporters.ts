// The Reporter of src/features rendered on a command's IOStreams: notices as stderr lines of
// their level, transfers as the progress line of render/transfer (uploads on a terminal only,
// downloads also as plain lines now and then; nothing for small files, --quiet or --json).
import type { IOStreams } from '../render/io.js';
import type { NoticeLevel, Reporter, TransferProgress, TransferReporter, TransferStart } from '../features/reporter.js';

export function notice(io: IOStreams, level: NoticeLevel, line: string): void {
  switch (level) {
    case 'debug':
      return io.debug(line);
    case 'info':
      return io.info(line);
    case 'notice':
      return io.notice(line);
    case 'warn':
      return io.warn(line);
  }
}

export function reporterOn(io: IOStreams): Reporter {
  return { notice: (level, line) => notice(io, level, line), verbose: io.verbose };
}

/** Whether a transfer is shown: an upload on a terminal, downloads off one too (not with --quiet). */
function shown(io: IOStreams, { verb, sizes }: TransferStart, fromBytes: number): boolean {
  if (io.json || !sizes.some((s) => (s ?? 0) >= fromBytes)) return false;
  return verb === 'uploading' ? io.canAnimate : !io.quiet;
}

async function transferOn(io: IOStreams, start: TransferStart): Promise<TransferProgress | undefined> {
  // The display (and the spinner under it) loads with the first transfer: a command that moves no bytes never loads it.
  const { SHOWN_FROM_BYTES, TransferDisplay } = await import('../render/transfer.js');
  if (!shown(io, start, SHOWN_FROM_BYTES)) return undefined;
  const { sizes } = start;
  const totalBytes = sizes.every((s) => s !== null) ? sizes.reduce<number>((a, s) => a + s!, 0) : null;
  const display = await TransferDisplay.open(io, { verb: start.verb, count: sizes.length, totalBytes });
  return { progress: (sample) => display.update(sample), done: () => display.stop() };
}

export function transferReporterOn(io: IOStreams): TransferReporter {
  return { ...reporterOn(io), transfer: (start) => transferOn(io, start) };
}
