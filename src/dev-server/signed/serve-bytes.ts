// Streams an asset's bytes with single-range support (200, 206, or 416 with `Content-Range:
// bytes */size`), for the signed-URL origin and for the content route of a deployment that serves
// bytes itself. Streaming, so large synthetic outputs never sit in memory.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { DevState, StoredOutput } from '../contract.js';
import { parseRange } from './range.js';

export async function serveAssetBytes(
  req: IncomingMessage,
  res: ServerResponse,
  state: DevState,
  asset: StoredOutput,
  extraHeaders: Record<string, string>,
  unsatisfiable: (size: number) => void,
): Promise<void> {
  const size = asset.size_bytes;
  const range = parseRange(typeof req.headers.range === 'string' ? req.headers.range : undefined, size);
  if (range.kind === 'unsatisfiable') return unsatisfiable(size);
  const slice = range.kind === 'partial' ? { start: range.start, end: range.end } : undefined;
  const length = slice ? slice.end - slice.start + 1 : size;
  const headers: Record<string, string | number> = {
    'content-type': asset.content_type,
    'content-length': length,
    ...(slice ? { 'content-range': `bytes ${slice.start}-${slice.end}/${size}` } : {}),
    'accept-ranges': 'bytes',
    ...extraHeaders,
  };
  res.writeHead(slice ? 206 : 200, headers);
  if (req.method === 'HEAD' || length === 0) {
    res.end();
    return;
  }
  try {
    await pipeline(state.engine.openOutput(asset, slice), res);
  } catch {
    // The client went away or a fault cut the connection; the stream is already torn down.
  }
}
