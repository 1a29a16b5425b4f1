// The asset library routes of the cloud API v1 as openapi-cloud.yaml publishes them: listAssets,
// uploadAsset (multipart; the same content again returns the existing record, 200), createAssetFromHash,
// checkAssetByHash, getAssetById, updateAsset, deleteAsset, addAssetTags, removeAssetTags, listTags,
// getAssetTagHistogram; and those that fetch a remote file (from-url.ts): uploadAsset's JSON form,
// getRemoteAssetMetadata, createAssetDownload and the task route that follows it. Errors in the
// published ErrorResponse ({code, message}).
import type { RequestContext } from '../contract.js';
import type { Route } from '../route-table.js';
import { readJson, sendJson, sendLegacyError } from '../http-kit.js';
import { HASH_PATTERN } from '../assets/blob-store.js';
import { readUploadForm } from '../legacy/multipart.js';
import { libraryOf, type LibraryAsset } from './store.js';
import { createDownload, getTask, remoteMetadata, uploadFromUrl } from './from-url.js';

const ASSET_HASH = /^(blake3|sha256):[a-f0-9]{64}$/;
const SORTS = new Set(['name', 'created_at', 'updated_at', 'size', 'last_access_time']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function tagList(v: unknown): string[] | null {
  return Array.isArray(v) && v.every((t) => typeof t === 'string' && t !== '') ? (v as string[]) : null;
}

/** A query integer within bounds, its default when absent; null when malformed. */
function intParam(ctx: RequestContext, name: string, fallback: number, min: number, max: number): number | null {
  const raw = ctx.url.searchParams.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  return /^\d+$/.test(raw) && n >= min && n <= max ? n : null;
}

/** `include_tags=a,b` (style form, explode false). */
function csv(ctx: RequestContext, name: string): string[] {
  return (ctx.url.searchParams.get(name) ?? '').split(',').filter(Boolean);
}

function filtered(ctx: RequestContext): LibraryAsset[] {
  const include = csv(ctx, 'include_tags');
  const exclude = csv(ctx, 'exclude_tags');
  const nameContains = (ctx.url.searchParams.get('name_contains') ?? '').toLowerCase();
  return [...libraryOf(ctx.state).assets.values()].filter((a) =>
    include.every((t) => a.tags.includes(t)) && !exclude.some((t) => a.tags.includes(t)) && a.name.toLowerCase().includes(nameContains));
}

async function listAssets(ctx: RequestContext): Promise<void> {
  const limit = intParam(ctx, 'limit', 20, 1, 500);
  const offset = intParam(ctx, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  const sort = ctx.url.searchParams.get('sort') ?? 'created_at';
  const order = ctx.url.searchParams.get('order') ?? 'desc';
  if (limit === null || offset === null || !SORTS.has(sort) || (order !== 'asc' && order !== 'desc')) {
    return sendLegacyError(ctx, 400, 'invalid_request', 'limit must be 1-500, offset 0 or more, sort one of name, created_at, updated_at, size, last_access_time, order asc or desc');
  }
  const key = sort as keyof LibraryAsset;
  const all = filtered(ctx).sort((a, b) => {
    const x = a[key] as string | number;
    const y = b[key] as string | number;
    return (x < y ? -1 : x > y ? 1 : 0) * (order === 'asc' ? 1 : -1);
  });
  sendJson(ctx, 200, { assets: all.slice(offset, offset + limit), total: all.length, has_more: offset + limit < all.length });
}

async function uploadAsset(ctx: RequestContext): Promise<void> {
  const type = String(ctx.req.headers['content-type'] ?? '');
  if (/^application\/json\b/i.test(type)) return uploadFromUrl(ctx);
  if (!/^multipart\/form-data\b/i.test(type)) {
    return sendLegacyError(ctx, 415, 'unsupported_media_type', 'send the file as multipart/form-data, or {url, name} as application/json');
  }
  const form = await readUploadForm(ctx, 'file');
  if (!form.file) return sendLegacyError(ctx, 400, 'invalid_request', 'the form has no `file` part');
  const library = libraryOf(ctx.state);
  const existing = (form.fields.id && library.assets.get(form.fields.id)) || library.byHash(form.file.hash);
  if (existing) return sendJson(ctx, 200, { ...existing, created_new: false });
  let metadata: unknown = {};
  try {
    metadata = form.fields.user_metadata ? JSON.parse(form.fields.user_metadata) : {};
  } catch {
    return sendLegacyError(ctx, 400, 'invalid_request', '`user_metadata` is not JSON');
  }
  if (!isObject(metadata)) return sendLegacyError(ctx, 400, 'invalid_request', '`user_metadata` must be a JSON object');
  const asset = library.add({
    id: form.fields.id,
    name: form.fields.name || form.file.filename || 'upload',
    asset_hash: form.file.hash,
    size: form.file.size,
    mime_type: form.fields.mime_type || form.file.mimeType,
    tags: form.lists.tags ?? [],
    user_metadata: metadata,
    preview_id: form.fields.preview_id ?? null,
  });
  sendJson(ctx, 201, { ...asset, created_new: true });
}

async function fromHash(ctx: RequestContext): Promise<void> {
  const body = await readJson(ctx);
  if (!isObject(body) || typeof body.hash !== 'string' || !ASSET_HASH.test(body.hash)) return sendLegacyError(ctx, 400, 'invalid_request', '`hash` must be blake3:<64 hex> or sha256:<64 hex>');
  const tags = tagList(body.tags);
  if (!tags || tags.length === 0) return sendLegacyError(ctx, 400, 'invalid_request', '`tags` must hold at least one tag');
  const size = ctx.state.blobs.size(body.hash);
  if (size === undefined) return sendLegacyError(ctx, 404, 'not_found', `no content with hash ${body.hash}`);
  const library = libraryOf(ctx.state);
  const asset = library.add({
    name: typeof body.name === 'string' && body.name ? body.name : body.hash,
    asset_hash: body.hash,
    size,
    mime_type: typeof body.mime_type === 'string' ? body.mime_type : 'application/octet-stream',
    tags,
    user_metadata: isObject(body.user_metadata) ? body.user_metadata : {},
  });
  sendJson(ctx, 201, { ...asset, created_new: true });
}

async function checkByHash(ctx: RequestContext, hash: string): Promise<void> {
  if (!HASH_PATTERN.test(hash)) return sendLegacyError(ctx, 400, 'invalid_request', 'the hash must be blake3:<64 hex>');
  ctx.res.writeHead(ctx.state.blobs.has(hash) ? 200 : 404, { 'content-length': 0 });
  ctx.res.end();
}

function found(ctx: RequestContext, id: string): LibraryAsset | undefined {
  const asset = libraryOf(ctx.state).assets.get(id);
  if (!asset) sendLegacyError(ctx, 404, 'not_found', `no asset ${id}`);
  return asset;
}

async function getAsset(ctx: RequestContext, id: string): Promise<void> {
  const asset = found(ctx, id);
  if (asset) sendJson(ctx, 200, asset);
}

async function updateAsset(ctx: RequestContext, id: string): Promise<void> {
  const asset = found(ctx, id);
  if (!asset) return;
  const body = await readJson(ctx);
  const keys = ['name', 'tags', 'mime_type', 'preview_id', 'user_metadata'];
  if (!isObject(body) || !keys.some((k) => k in body)) return sendLegacyError(ctx, 400, 'invalid_request', `give at least one of ${keys.join(', ')}`);
  if ('name' in body && (typeof body.name !== 'string' || body.name === '')) return sendLegacyError(ctx, 400, 'invalid_request', '`name` must be a non-empty string');
  if ('tags' in body && !tagList(body.tags)) return sendLegacyError(ctx, 400, 'invalid_request', '`tags` must be an array of tags');
  if (typeof body.name === 'string') asset.name = body.name;
  if ('tags' in body) asset.tags = [...new Set(tagList(body.tags)!)];
  if (typeof body.mime_type === 'string') asset.mime_type = body.mime_type;
  if (typeof body.preview_id === 'string') asset.preview_id = body.preview_id;
  if (isObject(body.user_metadata)) asset.user_metadata = body.user_metadata;
  asset.updated_at = new Date().toISOString();
  const { name, asset_hash, tags, mime_type, user_metadata, updated_at } = asset;
  sendJson(ctx, 200, { id, name, asset_hash, tags, mime_type, user_metadata, updated_at });
}

async function deleteAsset(ctx: RequestContext, id: string): Promise<void> {
  if (!found(ctx, id)) return;
  libraryOf(ctx.state).assets.delete(id);
  ctx.res.writeHead(204);
  ctx.res.end();
}

async function changeTags(ctx: RequestContext, id: string, add: boolean): Promise<void> {
  const asset = found(ctx, id);
  if (!asset) return;
  const body = await readJson(ctx);
  const tags = isObject(body) ? tagList(body.tags) : null;
  if (!tags || tags.length === 0) return sendLegacyError(ctx, 400, 'invalid_request', '`tags` must hold at least one tag');
  const had = new Set(asset.tags);
  const changed = tags.filter((t) => had.has(t) !== add);
  const unchanged = tags.filter((t) => had.has(t) === add);
  asset.tags = add ? [...asset.tags, ...new Set(changed)] : asset.tags.filter((t) => !tags.includes(t));
  asset.updated_at = new Date().toISOString();
  sendJson(ctx, 200, add ? { added: changed, already_present: unchanged, total_tags: asset.tags } : { removed: changed, not_present: unchanged, total_tags: asset.tags });
}

async function listTags(ctx: RequestContext): Promise<void> {
  const limit = intParam(ctx, 'limit', 100, 1, 1000);
  const offset = intParam(ctx, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  const order = ctx.url.searchParams.get('order') ?? 'count_desc';
  if (limit === null || offset === null || (order !== 'count_desc' && order !== 'name_asc')) return sendLegacyError(ctx, 400, 'invalid_request', 'limit must be 1-1000, offset 0 or more, order count_desc or name_asc');
  const prefix = ctx.url.searchParams.get('prefix') ?? '';
  const counts = new Map<string, number>();
  for (const asset of libraryOf(ctx.state).assets.values()) for (const tag of asset.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  const tags = [...counts].filter(([name]) => name.startsWith(prefix)).map(([name, count]) => ({ name, count }))
    .sort((a, b) => (order === 'name_asc' ? a.name.localeCompare(b.name) : b.count - a.count || a.name.localeCompare(b.name)));
  sendJson(ctx, 200, { tags: tags.slice(offset, offset + limit), total: tags.length, has_more: offset + limit < tags.length });
}

async function refineTags(ctx: RequestContext): Promise<void> {
  const limit = intParam(ctx, 'limit', 100, 1, 1000);
  if (limit === null) return sendLegacyError(ctx, 400, 'invalid_request', 'limit must be 1-1000');
  const counts: Record<string, number> = {};
  for (const asset of filtered(ctx)) for (const tag of asset.tags) counts[tag] = (counts[tag] ?? 0) + 1;
  sendJson(ctx, 200, { tag_counts: Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1]).slice(0, limit)) });
}

export const LIBRARY_ROUTES: Route[] = [
  { method: 'GET', pattern: /^\/api\/assets$/, run: listAssets },
  { method: 'POST', pattern: /^\/api\/assets$/, run: uploadAsset },
  { method: 'POST', pattern: /^\/api\/assets\/from-hash$/, run: fromHash },
  { method: 'GET', pattern: /^\/api\/assets\/tags\/refine$/, run: refineTags },
  { method: 'GET', pattern: /^\/api\/assets\/remote-metadata$/, run: remoteMetadata },
  { method: 'POST', pattern: /^\/api\/assets\/download$/, run: createDownload },
  { method: 'GET', pattern: /^\/api\/tasks\/([^/]+)$/, run: (ctx, id) => getTask(ctx, id!) },
  { method: 'HEAD', pattern: /^\/api\/assets\/hash\/([^/]+)$/, run: checkByHash },
  { method: 'GET', pattern: /^\/api\/assets\/([^/]+)$/, run: getAsset },
  { method: 'PUT', pattern: /^\/api\/assets\/([^/]+)$/, run: updateAsset },
  { method: 'DELETE', pattern: /^\/api\/assets\/([^/]+)$/, run: deleteAsset },
  { method: 'POST', pattern: /^\/api\/assets\/([^/]+)\/tags$/, run: (ctx, id) => changeTags(ctx, id!, true) },
  { method: 'DELETE', pattern: /^\/api\/assets\/([^/]+)\/tags$/, run: (ctx, id) => changeTags(ctx, id!, false) },
  { method: 'GET', pattern: /^\/api\/tags$/, run: listTags },
];
