// Upload progress for people: the bytes of one file as they go out, with rate and time left, on
// a terminal only (nothing with --quiet, --json or off a terminal: an upload's outcome line says
// enough there). Small files, which are sent before a line could be read, get none.
import type { UploadObserver } from '../clients/jobs/assets.js';
import type { IOStreams } from './io.js';
import { SHOWN_FROM_BYTES, TransferDisplay } from './transfer.js';

/** A progress line for uploading `name` of `size` bytes, or undefined when none should be shown. */
export async function uploadProgress(io: IOStreams, name: string, size: number): Promise<UploadObserver | undefined> {
  if (!io.canAnimate || io.json || size < SHOWN_FROM_BYTES) return undefined;
  const display = await TransferDisplay.open(io, { verb: 'uploading', count: 1, totalBytes: size });
  return {
    sent: (bytes) => display.update({ name, bytes, total: size }),
    done: () => display.stop(),
  };
}
