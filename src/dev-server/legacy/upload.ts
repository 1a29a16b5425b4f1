// POST /api/upload/image and /api/upload/mask. Storage is one flat, content-addressed namespace:
// each upload becomes an asset record whose file_path is the upload name, so a LoadImage node can
// name it. Without `overwrite`, a name already taken by other bytes gets the local engine's
// numbered copy (`cat (1).png`); the same bytes under the same name reuse the existing record.
import { posix } from 'node:path';
import type { BlobStore, RequestContext, StoredOutput } from '../contract.js';
import { sendJson, sendLegacyError } from '../http-kit.js';
import type { V1UploadResult } from '../../protocol/legacy.js';
import { readUploadForm, type StoredFilePart } from './multipart.js';
import { findFile } from './files.js';
import { sendBare } from '../self-hosted/plain.js';

/**
 * An upload refused: the cloud's JSON error, or on a self-hosted engine its handler's bare
 * `web.Response(status=400)`, an empty body (as observed).
 */
function refuseUpload(ctx: RequestContext, message: string): void {
  if (ctx.state.options.deployment === 'self-hosted') sendBare(ctx, 400);
  else sendLegacyError(ctx, 400, 'invalid_request', message);
}

const UPLOAD_TYPES = new Set(['input', 'temp']);

/** Only the last path segment of a client-supplied name, without control characters. */
export function flatName(filename: string): string {
  const last = filename.split(/[\\/]/).pop() ?? '';
  return last.replace(/[\u0000-\u001f\u007f]/g, '').trim();
}

function numbered(name: string, n: number): string {
  const ext = posix.extname(name);
  const stem = ext && ext !== name ? name.slice(0, -ext.length) : name;
  return `${stem} (${n})${ext && ext !== name ? ext : ''}`;
}

/** The name an upload ends up under, and whether an existing record already holds these bytes. */
export function chooseUploadName(
  blobs: Pick<BlobStore, 'findAssetByPath'>,
  wanted: string,
  hash: string,
  overwrite: boolean,
): { name: string; existing: StoredOutput | null } {
  if (overwrite) return { name: wanted, existing: null };
  for (let n = 0; ; n++) {
    const name = n === 0 ? wanted : numbered(wanted, n);
    const existing = blobs.findAssetByPath(name);
    if (!existing) return { name, existing: null };
    if (existing.blobHash === hash) return { name, existing };
  }
}

function contentTypeOf(part: StoredFilePart): string {
  return part.mimeType && part.mimeType !== 'application/octet-stream' ? part.mimeType : guessByExtension(part.filename);
}

function guessByExtension(name: string): string {
  const ext = posix.extname(name).toLowerCase();
  const known: Record<string, string> = {
    '.png': 'image/png',
    '.jpg': 'image/jpeg',
    '.jpeg': 'image/jpeg',
    '.webp': 'image/webp',
    '.gif': 'image/gif',
    '.txt': 'text/plain',
    '.json': 'application/json',
    '.mp4': 'video/mp4',
    '.wav': 'audio/wav',
    '.mp3': 'audio/mpeg',
  };
  return known[ext] ?? 'application/octet-stream';
}

function storeUpload(ctx: RequestContext, part: StoredFilePart, overwrite: boolean): string {
  const wanted = flatName(part.filename);
  const { name, existing } = chooseUploadName(ctx.state.blobs, wanted, part.hash, overwrite);
  if (!existing) ctx.state.blobs.createAsset({ hash: part.hash, file_path: name, content_type: contentTypeOf(part) });
  return name;
}

async function readImageForm(ctx: RequestContext): Promise<{ fields: Record<string, string>; part: StoredFilePart } | null> {
  const { fields, file } = await readUploadForm(ctx, 'image');
  if (!file) {
    refuseUpload(ctx, 'multipart field `image` (the file) is required');
    return null;
  }
  if (!flatName(file.filename)) {
    refuseUpload(ctx, 'the `image` part needs a file name');
    return null;
  }
  const type = fields.type ?? 'input';
  if (!UPLOAD_TYPES.has(type)) {
    refuseUpload(ctx, `field \`type\` must be input or temp, got ${JSON.stringify(type)}`);
    return null;
  }
  return { fields: { ...fields, type }, part: file };
}

function parseOverwrite(value: string | undefined): boolean | null {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  return null;
}

export async function uploadImage(ctx: RequestContext): Promise<void> {
  const form = await readImageForm(ctx);
  if (!form) return;
  const overwrite = parseOverwrite(form.fields.overwrite);
  if (overwrite === null) {
    refuseUpload(ctx, 'field `overwrite` must be "true" or "false"');
    return;
  }
  const name = storeUpload(ctx, form.part, overwrite);
  const result: V1UploadResult = { name, subfolder: '', type: form.fields.type! };
  sendJson(ctx, 200, result);
}

interface OriginalRef {
  filename: string;
  subfolder: string;
  type: string;
}

function parseOriginalRef(text: string | undefined): OriginalRef | string {
  if (text === undefined) return 'field `original_ref` is required';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'field `original_ref` is not valid JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'field `original_ref` must be a JSON object';
  const ref = value as Record<string, unknown>;
  if (typeof ref.filename !== 'string' || ref.filename === '') return '`original_ref.filename` must be a non-empty string';
  for (const key of ['subfolder', 'type'] as const) {
    if (ref[key] !== undefined && typeof ref[key] !== 'string') return `\`original_ref.${key}\` must be a string`;
  }
  return { filename: ref.filename, subfolder: (ref.subfolder as string | undefined) ?? '', type: (ref.type as string | undefined) ?? 'input' };
}

/** The mask is stored as uploaded (no compositing into the original); `subfolder` is ignored. */
export async function uploadMask(ctx: RequestContext): Promise<void> {
  const form = await readImageForm(ctx);
  if (!form) return;
  const original = parseOriginalRef(form.fields.original_ref);
  if (typeof original === 'string') {
    refuseUpload(ctx, original);
    return;
  }
  if (!findFile(ctx.state, original.filename, original.subfolder, original.type)) {
    refuseUpload(ctx, `original image ${JSON.stringify(original.filename)} is not known`);
    return;
  }
  const name = storeUpload(ctx, form.part, false);
  const result: V1UploadResult = { name, subfolder: '', type: form.fields.type! };
  sendJson(ctx, 200, result);
}
