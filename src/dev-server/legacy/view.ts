// GET /api/view: a 302 to a signed URL on the other origin; the client fetches it with no key.
import type { RequestContext } from '../contract.js';
import { sendEmpty, sendLegacyError } from '../http-kit.js';
import { findFile } from './files.js';

const VIEW_TYPES = new Set(['output', 'temp', 'input']);

export async function view(ctx: RequestContext): Promise<void> {
  const query = ctx.url.searchParams;
  const filename = query.get('filename') ?? '';
  const subfolder = query.get('subfolder') ?? '';
  const type = query.get('type') || 'output';
  if (!filename) return sendLegacyError(ctx, 400, 'invalid_request', 'query parameter `filename` is required');
  if (!VIEW_TYPES.has(type)) return sendLegacyError(ctx, 400, 'invalid_request', `query parameter \`type\` must be output, temp or input, got ${JSON.stringify(type)}`);
  const file = findFile(ctx.state, filename, subfolder, type);
  if (!file) return sendLegacyError(ctx, 404, 'not_found', `no ${type} file ${JSON.stringify(filename)}`);
  const { url } = ctx.state.signer.signAsset(file);
  sendEmpty(ctx, 302, { location: url, 'cache-control': 'no-store' });
}
