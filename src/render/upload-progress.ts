// Upload progress for people: the bytes of one file as they go out, with rate and time left, on
// a terminal only (nothing with --quiet, --json or off a terminal: an upload's outcome line says
// enough there). Small files, which are sent before a line could be read, get none.
import type { IOStreams } from './io.js';
import { SHOWN_FROM_BYTES, TransferDisplay } from './transfer.js';

export interface UploadProgress {
  /** Bytes of the file handed to the connection so far (back to 0 when a request is retried). */
  sent(bytes: number): void;
  /** The upload is over, however it ended: the line goes. */
  done(): void;
}

/** A progress line for uploading `name` of `size` bytes, or undefined when none should be shown. */
export function uploadProgress(io: IOStreams, name: string, size: number): UploadProgress | undefined {
  if (!io.canAnimate || io.json || size < SHOWN_FROM_BYTES) return undefined;
  const display = new TransferDisplay(io, { verb: 'uploading', count: 1, totalBytes: size });
  return {
    sent: (bytes) => display.update({ name, bytes, total: size }),
    done: () => display.stop(),
  };
}
