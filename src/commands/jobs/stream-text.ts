// Copies server text to a stream line by line through the sanitizer, so no escape sequence can
// survive by straddling two chunks. A very long line is flushed in pieces (memory stays bounded).
import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import { once } from 'node:events';
import { sanitize } from '../../util/sanitize.js';

const MAX_PENDING_CHARS = 64 * 1024;

async function write(out: Writable, text: string): Promise<void> {
  if (text && !out.write(text)) await once(out, 'drain');
}

export async function streamSanitized(body: Readable, out: Writable): Promise<void> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  for await (const chunk of body) {
    pending += decoder.write(chunk as Buffer);
    const cut = pending.lastIndexOf('\n');
    if (cut >= 0) {
      await write(out, sanitize(pending.slice(0, cut + 1)));
      pending = pending.slice(cut + 1);
    } else if (pending.length > MAX_PENDING_CHARS) {
      await write(out, sanitize(pending));
      pending = '';
    }
  }
  pending += decoder.end();
  await write(out, sanitize(pending));
}
