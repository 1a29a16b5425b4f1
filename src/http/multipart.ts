// multipart/form-data built by hand: text fields and files streamed from disk in 1 MiB reads, with
// an exact Content-Length. undici's FormData (the web one) loads its whole fetch stack and moves
// a file through Blob streams in 64 KiB pieces; this sends the same bytes with none of that.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';

export type Part = { name: string; value: string } | { name: string; path: string; filename: string; contentType?: string };

export interface MultipartBody {
  headers: Record<string, string>;
  /** A fresh stream of the whole body (each attempt of a request reads the file again). */
  body: () => Readable;
}

/** Quotes a name as browsers do in Content-Disposition: `"`, CR and LF percent-encoded. */
function quoted(name: string): string {
  return `"${name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

/**
 * `onFileBytes` hears how many bytes of the files have been handed to the connection, counted
 * afresh by each stream (a retried request starts again at 0).
 */
export async function multipartBody(parts: Part[], onFileBytes?: (sent: number) => void): Promise<MultipartBody> {
  const boundary = `----wes-${randomBytes(16).toString('hex')}`;
  const pieces: Array<Buffer | { path: string }> = [];
  let length = 0;
  const text = (s: string) => {
    const bytes = Buffer.from(s, 'utf8');
    pieces.push(bytes);
    length += bytes.length;
  };
  for (const part of parts) {
    if ('value' in part) {
      text(`--${boundary}\r\nContent-Disposition: form-data; name=${quoted(part.name)}\r\n\r\n${part.value}\r\n`);
      continue;
    }
    const type = part.contentType ?? 'application/octet-stream';
    text(`--${boundary}\r\nContent-Disposition: form-data; name=${quoted(part.name)}; filename=${quoted(part.filename)}\r\nContent-Type: ${type.replace(/[\r\n]/g, '')}\r\n\r\n`);
    pieces.push({ path: part.path });
    length += (await stat(part.path)).size;
    text('\r\n');
  }
  text(`--${boundary}--\r\n`);
  async function* stream(): AsyncGenerator<Buffer> {
    let sent = 0;
    for (const piece of pieces) {
      if (Buffer.isBuffer(piece)) {
        yield piece;
        continue;
      }
      for await (const chunk of createReadStream(piece.path, { highWaterMark: 1 << 20 })) {
        yield chunk as Buffer;
        sent += (chunk as Buffer).length;
        onFileBytes?.(sent);
      }
    }
  }
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length) },
    body: () => Readable.from(stream(), { objectMode: false }),
  };
}
