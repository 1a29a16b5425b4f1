// GET /view as the engine serves it: 200 with the file's bytes from its own folders (no redirect,
// no signed URL); a file it does not have is a 404 with an empty body.
import { pipeline } from 'node:stream/promises';
import type { RequestContext } from '../contract.js';
import { findFile } from '../legacy/files.js';
import { sendBare } from './plain.js';

const FOLDER_TYPES = new Set(['output', 'input', 'temp']);

export async function viewEngineFile(ctx: RequestContext): Promise<void> {
  const query = ctx.url.searchParams;
  const filename = query.get('filename');
  const type = query.get('type') || 'output';
  if (!filename) return sendBare(ctx, 404);
  if (!FOLDER_TYPES.has(type)) return sendBare(ctx, 400);
  const file = findFile(ctx.state, filename, query.get('subfolder') ?? '', type);
  if (!file) return sendBare(ctx, 404);
  ctx.res.writeHead(200, {
    'content-type': file.content_type,
    'content-length': file.size_bytes,
    'content-disposition': `filename="${file.name.split('/').pop()!.replace(/["\\\r\n]/g, '_')}"`,
  });
  if (ctx.req.method === 'HEAD' || file.size_bytes === 0) return void ctx.res.end();
  try {
    await pipeline(ctx.state.engine.openOutput(file), ctx.res);
  } catch {
    // the client went away mid-file
  }
}
