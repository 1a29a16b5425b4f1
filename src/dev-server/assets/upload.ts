// POST /api/v2/assets: a single-use Idempotency-Key claimed on arrival, the multipart fields as
// published (`file`, `content_type`, `file_path`, `expected_hash`, `tags[]`, `expires_in`), a new
// record minted over the bytes (201 new blob, 200 a blob already held); on self-hosted one record
// per blob, as the reference server: the same bytes again answer the first record (200). A refusal releases the key
// and forgets bytes it stored; a failure (5xx) or a lost answer keeps the key.
import type { RequestContext } from '../contract.js';
import { sendJson, sendJobsError } from '../http-kit.js';
import { claimKey } from '../jobs/idempotency.js';
import { assetJson } from '../jobs/view.js';
import { isSelfHosted } from '../jobs/links.js';
import { HASH_PATTERN, type FileBlobStore } from './blob-store.js';
import { parseExpiresIn } from './fields.js';
import { filePathProblem } from './file-path.js';
import { guessMediaType, MEDIA_TYPE } from './media-type.js';
import { BLOCKED_CONTENT_MARKER } from './moderation.js';
import { readUpload, UploadProblem, type ParsedUpload } from './multipart.js';
import { storedImage } from './strip-metadata.js';

export function blobStore(ctx: RequestContext): FileBlobStore {
  return ctx.state.blobs as unknown as FileBlobStore;
}

export function invalidAssetRequest(ctx: RequestContext, message: string): void {
  sendJobsError(ctx, 422, 'invalid_request', message);
}

async function read(ctx: RequestContext): Promise<ParsedUpload | string> {
  try {
    return await readUpload(ctx, blobStore(ctx));
  } catch (err) {
    if (err instanceof UploadProblem) return err.message;
    throw err;
  }
}

export async function uploadAsset(ctx: RequestContext): Promise<void> {
  const claim = claimKey(ctx, 'assets');
  if (!claim) return;
  let upload: ParsedUpload | string;
  try {
    upload = await read(ctx);
  } catch (err) {
    claim.release(); // an unreadable or oversized body (400, 413, 415) stored nothing
    throw err;
  }
  const refuse = async (send: () => void, file?: ParsedUpload['file']): Promise<void> => {
    if (file?.created) await blobStore(ctx).remove(file.hash);
    claim.release();
    send();
  };
  if (typeof upload === 'string') return refuse(() => invalidAssetRequest(ctx, upload));
  const { fields, tags, file } = upload;
  const expires = parseExpiresIn(fields.expires_in);
  const problem =
    (!file ? (isSelfHosted(ctx) ? "Missing 'file' part." : 'the `file` part is missing') : null) ??
    (isSelfHosted(ctx) && !fields.file_path ? "Missing 'file_path'." : null) ??
    filePathProblem(fields.file_path) ??
    (fields.content_type !== undefined && !MEDIA_TYPE.test(fields.content_type) ? '`content_type` is not a media type' : null) ??
    // The reference server compares any declared hash (another algorithm's too) and answers 409.
    (fields.expected_hash !== undefined && !HASH_PATTERN.test(fields.expected_hash) && !isSelfHosted(ctx) ? '`expected_hash` must be blake3:<64 hex digits>' : null) ??
    ('problem' in expires ? expires.problem : null);
  if (problem || !file || 'problem' in expires) return refuse(() => invalidAssetRequest(ctx, problem ?? 'the `file` part is missing'), file);
  if (fields.expected_hash !== undefined && fields.expected_hash !== file.hash) {
    const details = { expected_hash: fields.expected_hash, actual_hash: file.hash };
    if (isSelfHosted(ctx)) return refuse(() => sendJobsError(ctx, 409, 'hash_mismatch', 'Client-declared hash does not match the received bytes.'), file);
    return refuse(() => sendJobsError(ctx, 409, 'hash_mismatch', `the uploaded bytes hash to ${file.hash}, not ${fields.expected_hash}`, details), file);
  }
  if (file.flagged) {
    return refuse(() => sendJobsError(ctx, 451, 'content_blocked', `moderation flagged the asset's bytes (they contain ${BLOCKED_CONTENT_MARKER})`), file);
  }
  const stored = await storedImage(ctx, blobStore(ctx), file);
  if (isSelfHosted(ctx)) {
    // The reference server keeps one record per blob: the same bytes again, under any path, get it back.
    const first = blobStore(ctx).findSameAsset({ hash: file.hash });
    if (first) return sendJson(ctx, 200, assetJson(ctx, first, false));
  }
  const partType = file.mimeType && file.mimeType !== 'application/octet-stream' ? file.mimeType : undefined;
  const filePath = fields.file_path!;
  const asset = blobStore(ctx).createAsset({
    hash: stored.hash,
    file_path: filePath,
    content_type: fields.content_type ?? partType ?? guessMediaType(filePath),
    ...(tags.length > 0 ? { tags } : {}),
    ...(expires.value !== undefined ? { expiresAt: expires.value } : {}),
  });
  // Self-hosted: a record is new (201) whenever none was held, even over bytes kept for another use.
  const created = stored.created || isSelfHosted(ctx);
  sendJson(ctx, created ? 201 : 200, assetJson(ctx, asset, created));
}
