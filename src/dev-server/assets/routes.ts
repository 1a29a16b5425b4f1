// The jobs API asset routes: upload, from-hash, by-hash existence, record, content redirect.
import type { RequestContext } from '../contract.js';
import { readJson, sendEmpty, sendJson, sendJobsError } from '../http-kit.js';
import { fingerprint, idempotencyKey, idempotencyStore } from '../jobs/idempotency.js';
import { assetJson } from '../jobs/view.js';
import { HASH_PATTERN, type FileBlobStore } from './blob-store.js';
import { filePathProblem } from './file-path.js';
import { guessMediaType, MEDIA_TYPE } from './media-type.js';
import { BLOCKED_CONTENT_MARKER } from './moderation.js';
import { readUpload, UploadProblem } from './multipart.js';

function store(ctx: RequestContext): FileBlobStore {
  return ctx.state.blobs as FileBlobStore;
}

function invalid(ctx: RequestContext, message: string): void {
  sendJobsError(ctx, 422, 'invalid_request', message);
}

/** The record for these fields: an identical one is reused; returns it and whether it is new. */
function recordFor(ctx: RequestContext, fields: { hash: string; file_path: string; content_type: string }) {
  const existing = store(ctx).findSameAsset(fields);
  return existing ? { asset: existing, created: false } : { asset: store(ctx).createAsset(fields), created: true };
}

export async function uploadAsset(ctx: RequestContext): Promise<void> {
  let upload;
  try {
    upload = await readUpload(ctx, store(ctx));
  } catch (err) {
    if (err instanceof UploadProblem) return invalid(ctx, err.message);
    throw err;
  }
  const { fields, file } = upload;
  const discard = async (): Promise<void> => {
    if (file?.created) await store(ctx).remove(file.hash);
  };
  const problem =
    (!file ? 'the `file` part is missing' : null) ??
    filePathProblem(fields.file_path) ??
    (fields.content_type !== undefined && !MEDIA_TYPE.test(fields.content_type) ? '`content_type` is not a media type' : null) ??
    (fields.expected_hash !== undefined && !HASH_PATTERN.test(fields.expected_hash) ? '`expected_hash` must be blake3:<64 hex digits>' : null);
  if (problem || !file) {
    await discard();
    return invalid(ctx, problem ?? 'the `file` part is missing');
  }
  if (fields.expected_hash !== undefined && fields.expected_hash !== file.hash) {
    await discard();
    return sendJobsError(ctx, 409, 'hash_mismatch', `the uploaded bytes hash to ${file.hash}, not ${fields.expected_hash}`, {
      expected_hash: fields.expected_hash,
      actual_hash: file.hash,
    });
  }
  if (file.flagged) {
    await discard();
    return sendJobsError(ctx, 451, 'content_blocked', `moderation flagged the asset's bytes (they contain ${BLOCKED_CONTENT_MARKER})`);
  }
  const partType = file.mimeType && file.mimeType !== 'application/octet-stream' ? file.mimeType : undefined;
  const record = { hash: file.hash, file_path: fields.file_path!, content_type: fields.content_type ?? partType ?? guessMediaType(fields.file_path!) };
  const key = idempotencyKey(ctx);
  const keys = idempotencyStore(ctx, 'assets');
  const print = fingerprint(record);
  if (key) {
    const seen = keys.lookup(ctx, key, print);
    if (seen.kind === 'conflict') {
      return sendJobsError(ctx, 422, 'idempotency_key_reuse', 'this Idempotency-Key was used with a different upload');
    }
    const earlier = seen.kind === 'replay' ? ctx.state.engine.findAsset(seen.result) : undefined;
    if (earlier) return sendJson(ctx, 200, assetJson(ctx, earlier));
  }
  const { asset } = recordFor(ctx, record);
  if (key) keys.remember(ctx, key, print, asset.id);
  sendJson(ctx, file.created ? 201 : 200, assetJson(ctx, asset));
}

export async function assetFromHash(ctx: RequestContext): Promise<void> {
  const body = (await readJson(ctx)) as Record<string, unknown> | null;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return invalid(ctx, 'the body must be {"hash", "file_path"}');
  const { hash, file_path: filePath, content_type: contentType } = body;
  if (typeof hash !== 'string' || !HASH_PATTERN.test(hash)) return invalid(ctx, '`hash` must be blake3:<64 hex digits>');
  const pathProblem = filePathProblem(filePath);
  if (pathProblem) return invalid(ctx, pathProblem);
  if (contentType !== undefined && (typeof contentType !== 'string' || !MEDIA_TYPE.test(contentType))) {
    return invalid(ctx, '`content_type` is not a media type');
  }
  if (!store(ctx).has(hash)) return sendJobsError(ctx, 404, 'blob_not_found', `no blob with hash ${hash}; upload the bytes instead`);
  const { asset, created } = recordFor(ctx, {
    hash,
    file_path: filePath as string,
    content_type: (contentType as string | undefined) ?? guessMediaType(filePath as string),
  });
  sendJson(ctx, created ? 201 : 200, assetJson(ctx, asset));
}

export function blobExists(ctx: RequestContext, hash: string): void {
  const size = HASH_PATTERN.test(hash) ? store(ctx).size(hash) : undefined;
  if (ctx.req.method === 'HEAD') return sendEmpty(ctx, size === undefined ? 404 : 200, size === undefined ? {} : { 'x-blob-size': String(size) });
  if (size === undefined) return sendJobsError(ctx, 404, 'blob_not_found', `no blob with hash ${hash}`);
  sendJson(ctx, 200, { hash, size_bytes: size });
}

export function getAsset(ctx: RequestContext, id: string): void {
  const asset = ctx.state.engine.findAsset(id);
  if (!asset) return sendJobsError(ctx, 404, 'not_found', `no asset ${id}`);
  sendJson(ctx, 200, assetJson(ctx, asset));
}

export function assetContent(ctx: RequestContext, id: string): void {
  const asset = ctx.state.engine.findAsset(id);
  if (!asset) return sendJobsError(ctx, 404, 'not_found', `no asset ${id}`);
  sendEmpty(ctx, 302, { location: ctx.state.signer.signAsset(asset).url, 'cache-control': 'no-store' });
}
