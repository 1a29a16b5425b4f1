// A client that goes away mid-upload leaves busboy and the file part it is streaming waiting for
// bytes that never come: the blob store's temp file and its fd would stay open until shutdown.
import type { IncomingMessage } from 'node:http';
import type { Readable, Writable } from 'node:stream';

export const UPLOAD_ABORTED = 'the upload was aborted';

/**
 * When `req` closes before its whole body arrived: stop feeding `parser`, destroy it and the file
 * part `filePart()` returns (so the store's pipeline rejects and removes its temp file), then call
 * `onAbort`.
 */
export function tearDownOnAbort(req: IncomingMessage, parser: Writable, filePart: () => Readable | null, onAbort: (err: Error) => void): void {
  req.once('close', () => {
    if (req.complete) return;
    const err = new Error(UPLOAD_ABORTED);
    req.unpipe(parser);
    filePart()?.destroy(err);
    parser.destroy(err);
    onAbort(err);
  });
}
