// Comfy Cloud strips GPS/XMP/IPTC metadata from uploaded images, so the blob it stores hashes
// differently from the client's file (../shared/observations/job-api-v2-deployments.md). Imitated
// for PNG: the text and EXIF chunks (tEXt, iTXt, zTXt, eXIf) are dropped and the rest kept as is.
import { Readable } from 'node:stream';
import type { RequestContext } from '../contract.js';
import type { FileBlobStore } from './blob-store.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const METADATA_CHUNKS = new Set(['tEXt', 'iTXt', 'zTXt', 'eXIf']);
/** Cloud refuses images over 50 MiB; nothing larger is read whole here. */
const LARGEST_IMAGE = 50 * 1024 * 1024;

/** The PNG without its metadata chunks, or undefined when it is no PNG or has none. */
export function withoutMetadata(png: Buffer): Buffer | undefined {
  if (png.length < SIGNATURE.length || !png.subarray(0, SIGNATURE.length).equals(SIGNATURE)) return undefined;
  const kept: Buffer[] = [SIGNATURE];
  let dropped = false;
  for (let at = SIGNATURE.length; at < png.length; ) {
    if (at + 8 > png.length) return undefined;
    const end = at + 12 + png.readUInt32BE(at);
    if (end > png.length) return undefined;
    if (METADATA_CHUNKS.has(png.toString('latin1', at + 4, at + 8))) dropped = true;
    else kept.push(png.subarray(at, end));
    at = end;
  }
  return dropped ? Buffer.concat(kept) : undefined;
}

/** On the cloud surface, the stored blob of an uploaded image loses its metadata: the new blob, or the file as it came. */
export async function storedImage<F extends { hash: string; size: number; created: boolean }>(ctx: RequestContext, blobs: FileBlobStore, file: F): Promise<F> {
  if (ctx.state.options.deployment !== 'cloud' || file.size > LARGEST_IMAGE) return file;
  const chunks: Buffer[] = [];
  for await (const chunk of blobs.open(file.hash)) chunks.push(chunk as Buffer);
  const stripped = withoutMetadata(Buffer.concat(chunks));
  if (!stripped) return file;
  const kept = await blobs.put(Readable.from([stripped]));
  if (file.created && kept.hash !== file.hash) await blobs.remove(file.hash);
  return { ...file, ...kept };
}
