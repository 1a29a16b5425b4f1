// Reads a v1 upload form: small text fields plus one file part, streamed straight into the blob
// store (never buffered whole), so large uploads cost no memory.
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { RequestContext } from '../contract.js';
import { tearDownOnAbort } from '../core/form-abort.js';
import { BodyError } from '../http-kit.js';

export interface StoredFilePart {
  field: string;
  filename: string;
  mimeType: string;
  hash: string;
  size: number;
}

export interface UploadForm {
  fields: Record<string, string>;
  /** Every value of each field, in order (a field sent once per item of an array). */
  lists: Record<string, string[]>;
  file: StoredFilePart | null;
}

const MAX_FIELD_BYTES = 64 * 1024;

export function readUploadForm(ctx: RequestContext, fileField: string): Promise<UploadForm> {
  const type = String(ctx.req.headers['content-type'] ?? '');
  if (!/^multipart\/form-data\b/i.test(type)) {
    return Promise.reject(new BodyError(415, `expected multipart/form-data, got ${type || 'no Content-Type'}`));
  }
  const limit = ctx.state.options.maxUploadBytes;
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: ctx.req.headers, limits: { fileSize: limit, files: 4, fields: 32, fieldSize: MAX_FIELD_BYTES } });
    } catch (err) {
      reject(new BodyError(400, `malformed multipart form: ${(err as Error).message}`));
      return;
    }
    const fields: Record<string, string> = {};
    const lists: Record<string, string[]> = {};
    let stored: Promise<StoredFilePart> | null = null;
    let failure: Error | null = null;
    let filePart: Readable | null = null;
    parser.on('field', (name: string, value: string) => {
      fields[name] = value;
      (lists[name] ??= []).push(value);
    });
    parser.on('file', (name: string, stream: Readable, info: busboy.FileInfo) => {
      if (name !== fileField || stored) {
        stream.resume();
        return;
      }
      stream.on('limit', () => {
        failure = new BodyError(413, `file over the ${limit}-byte upload limit`);
      });
      filePart = stream;
      // put() listens for the part's errors at once: a body cut short inside the part fails it.
      stored = ctx.state.blobs.put(stream).then((put) => ({
        field: name,
        filename: info.filename ?? '',
        mimeType: info.mimeType,
        hash: put.hash,
        size: put.size,
      }));
      // A failed store must not become an unhandled rejection before the form ends.
      stored.catch(() => undefined);
    });
    parser.on('error', (err: Error) => reject(new BodyError(400, `malformed multipart form: ${err.message}`)));
    parser.on('close', () => {
      if (failure) {
        reject(failure);
        return;
      }
      if (!stored) {
        resolve({ fields, lists, file: null });
        return;
      }
      (stored as Promise<StoredFilePart>).then((file) => (failure ? reject(failure) : resolve({ fields, lists, file })), reject);
    });
    tearDownOnAbort(ctx.req, parser, () => filePart, (err) => reject(new BodyError(400, err.message)));
    ctx.req.pipe(parser);
  });
}
