// Reads an asset upload (multipart/form-data) and streams the `file` part straight into the
// blob store while hashing and scanning it; nothing is held whole in memory.
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { RequestContext } from '../contract.js';
import { tearDownOnAbort } from '../core/form-abort.js';
import { BodyError } from '../http-kit.js';
import { isSelfHosted } from '../jobs/links.js';
import type { FileBlobStore } from './blob-store.js';
import { moderationTap } from './moderation.js';

export class UploadProblem extends Error {}

export interface ParsedUpload {
  fields: Record<string, string>;
  /** Every `tags` (or `tags[]`) field, in order: the contract's `tags[]` array. */
  tags: string[];
  file: { hash: string; size: number; created: boolean; mimeType: string; flagged: boolean } | null;
}

export async function readUpload(ctx: RequestContext, blobs: FileBlobStore): Promise<ParsedUpload> {
  const type = String(ctx.req.headers['content-type'] ?? '');
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new UploadProblem(isSelfHosted(ctx) ? 'Expected multipart/form-data.' : 'send the asset as multipart/form-data with a `file` part');
  }
  const limit = ctx.state.options.maxUploadBytes;
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: ctx.req.headers, limits: { files: 1, fields: 20, fieldSize: 64 * 1024, fileSize: limit } });
  } catch (err) {
    throw new UploadProblem(`malformed multipart request: ${(err as Error).message}`);
  }
  const fields = Object.create(null) as Record<string, string>; // field names are client text (`__proto__` too)
  const tags: string[] = [];
  let storing: Promise<ParsedUpload['file']> | null = null;
  let tooLarge = false;
  let extraFile = false;
  let filePart: Readable | null = null;

  const finished = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value) => {
      if (name === 'tags' || name === 'tags[]') tags.push(value);
      else fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || storing) {
        extraFile = true;
        stream.resume();
        return;
      }
      stream.on('limit', () => {
        tooLarge = true;
      });
      filePart = stream;
      const { tap, flagged } = moderationTap();
      // put() listens for the part's errors at once: a body cut short inside the part fails it.
      storing = blobs.put(stream, [tap]).then((stored) => ({ ...stored, mimeType: info.mimeType, flagged: flagged() }));
      // A failed store is reported by awaiting `storing` below; keep it from being unhandled meanwhile.
      storing.catch(() => undefined);
    });
    parser.on('filesLimit', () => {
      extraFile = true;
    });
    parser.on('close', resolve);
    parser.on('error', (err: Error) => reject(new UploadProblem(`malformed multipart request: ${err.message}`)));
    tearDownOnAbort(ctx.req, parser, () => filePart, (err) => reject(new UploadProblem(err.message)));
  });
  ctx.req.pipe(parser);
  await finished;
  const file = storing ? await (storing as Promise<ParsedUpload['file']>) : null;
  if (tooLarge) {
    if (file?.created) await blobs.remove(file.hash);
    throw new BodyError(413, `the file is larger than the ${limit}-byte upload limit`);
  }
  if (extraFile) {
    if (file?.created) await blobs.remove(file.hash);
    throw new UploadProblem('send exactly one file, in the part named `file`');
  }
  return { fields, tags, file };
}
