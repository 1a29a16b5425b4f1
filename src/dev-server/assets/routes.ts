// The jobs API asset routes beside upload: from-hash, the existence check by hash, the record,
// delete, and the content (302 to a signed URL on hosted deployments; the bytes themselves, with
// Range, where the server stores them: self-hosted).
import { notFoundCode } from '../jobs/dialect.js';
import type { RequestContext } from '../contract.js';
import { readJson, sendEmpty, sendJson, sendJobsError } from '../http-kit.js';
import { HandlerCrash, readProxyJson, sendCrashPage } from '../self-hosted/plain.js';
import { isSelfHosted } from '../jobs/links.js';
import { assetJson } from '../jobs/view.js';
import { serveAssetBytes } from '../signed/serve-bytes.js';
import { parseRange } from '../signed/range.js';
import { HASH_PATTERN } from './blob-store.js';
import { parseExpiresIn, parseTags } from './fields.js';
import { filePathProblem } from './file-path.js';
import { blobStore, invalidAssetRequest } from './upload.js';

/** The reference server's words for an asset it does not have (a second delete included). */
export const UNKNOWN_ASSET_MESSAGE = 'Unknown asset id.';

function unknownAsset(ctx: RequestContext): void {
  sendJobsError(ctx, 404, notFoundCode(ctx, 'asset'), UNKNOWN_ASSET_MESSAGE);
}

export async function assetFromHash(ctx: RequestContext): Promise<void> {
  let body: Record<string, unknown> | null;
  try {
    body = (await (isSelfHosted(ctx) ? readProxyJson(ctx) : readJson(ctx))) as Record<string, unknown> | null;
  } catch (err) {
    if (err instanceof HandlerCrash) return sendCrashPage(ctx);
    throw err;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return invalidAssetRequest(ctx, 'the body must be {"hash", "file_path"?, "tags"?, "expires_in"?}');
  const { hash, file_path: filePath } = body;
  if (typeof hash !== 'string' && isSelfHosted(ctx)) return invalidAssetRequest(ctx, "Missing 'hash'.");
  // The reference server looks any string up: a malformed one is simply not found (below).
  if (typeof hash !== 'string' || (!HASH_PATTERN.test(hash) && !isSelfHosted(ctx))) return invalidAssetRequest(ctx, '`hash` must be blake3:<64 hex digits>');
  const pathProblem = filePath === undefined ? null : filePathProblem(filePath);
  if (pathProblem) return invalidAssetRequest(ctx, pathProblem);
  const tags = parseTags(body.tags);
  if ('problem' in tags) return invalidAssetRequest(ctx, tags.problem);
  const expires = parseExpiresIn(body.expires_in);
  if ('problem' in expires) return invalidAssetRequest(ctx, expires.problem);
  const store = blobStore(ctx);
  if (isSelfHosted(ctx)) {
    // One record per blob: from-hash answers it as it is (the path asked is not taken), or nothing.
    const record = store.findSameAsset({ hash });
    if (!record) return sendJobsError(ctx, 404, 'blob_not_found', 'No blob the caller may mint from.');
    return sendJson(ctx, 200, assetJson(ctx, record, false));
  }
  if (!store.has(hash)) return sendJobsError(ctx, 404, 'blob_not_found', `no blob with hash ${hash}; upload the bytes instead`);
  // A record that already says all this is returned as it is (200); otherwise one is minted (201).
  const same = tags.value === undefined && expires.value === undefined ? store.findSameAsset({ hash, ...(typeof filePath === 'string' ? { file_path: filePath } : {}) }) : undefined;
  if (same) return sendJson(ctx, 200, assetJson(ctx, same, false));
  const template = store.findSameAsset({ hash });
  const path = typeof filePath === 'string' ? filePath : template?.file_path ?? null;
  const asset = store.createAsset({
    hash,
    file_path: path,
    content_type: template?.content_type ?? 'application/octet-stream',
    ...(tags.value !== undefined ? { tags: tags.value } : {}),
    ...(expires.value !== undefined ? { expiresAt: expires.value } : {}),
  });
  sendJson(ctx, 201, assetJson(ctx, asset, false));
}

/**
 * HEAD: 200 when the blob is held, 404 otherwise, no body (published). Self-hosted: held means a
 * record over it exists (deleting a blob's only record makes it 404), no header but the server's.
 */
export function blobExists(ctx: RequestContext, hash: string): void {
  const store = blobStore(ctx);
  const held = HASH_PATTERN.test(hash) && (isSelfHosted(ctx) ? store.findSameAsset({ hash }) !== undefined : store.has(hash));
  if (isSelfHosted(ctx)) {
    ctx.res.statusCode = held ? 200 : 404;
    ctx.res.removeHeader('content-length');
    ctx.res.end();
    return;
  }
  sendEmpty(ctx, held ? 200 : 404);
}

export function getAsset(ctx: RequestContext, id: string): void {
  const asset = ctx.state.engine.findAsset(id);
  if (!asset) return unknownAsset(ctx);
  sendJson(ctx, 200, assetJson(ctx, asset));
}

/** 204; 404 for an unknown (or already deleted) id; 409 while a job holds it or it is a job's output. */
export function deleteAsset(ctx: RequestContext, id: string): void {
  const asset = ctx.state.engine.findAsset(id);
  if (!asset) return unknownAsset(ctx);
  // The reference server cannot delete a job's output: it does not know the id as a record.
  if (asset.job_id !== null && isSelfHosted(ctx)) return unknownAsset(ctx);
  if (asset.job_id !== null || ctx.state.engine.assetInUse(id)) {
    return sendJobsError(ctx, 409, 'asset_in_use', 'This asset cannot be deleted while it is in use.');
  }
  ctx.state.blobs.deleteAsset(id);
  sendEmpty(ctx, 204);
}

/**
 * Whether the engine behind the reference server serves this Range: it answers 416 to an
 * unsatisfiable, multi-part or malformed one, which the server passes on as a 502 (no 416, no
 * Content-Range).
 */
function rangeServed(header: string | undefined, size: number): boolean {
  if (header === undefined) return true;
  if (!/^bytes=\d*-\d*$/.test(header.trim()) || header.trim() === 'bytes=-') return false;
  return parseRange(header, size).kind !== 'unsatisfiable';
}

export async function assetContent(ctx: RequestContext, id: string): Promise<void> {
  const asset = ctx.state.engine.findAsset(id);
  if (!asset) return unknownAsset(ctx);
  if (!isSelfHosted(ctx)) return sendEmpty(ctx, 302, { location: ctx.state.signer.signAsset(asset).url, 'cache-control': 'no-store' });
  if (!rangeServed(ctx.req.headers.range, asset.size_bytes)) return sendJobsError(ctx, 502, 'upstream_error', 'ComfyUI returned an unexpected status for the output.');
  await serveAssetBytes(ctx.req, ctx.res, ctx.state, asset, {}, (size) =>
    sendJobsError(ctx, 416, 'range_not_satisfiable', `the range is outside the content's ${size} bytes`, null, { 'content-range': `bytes */${size}` }),
  );
}
