// The asset library's operations that fetch a remote file, as openapi-cloud.yaml publishes them:
// uploadAsset's JSON form ({url, name, tags}: fetched while the request waits), getRemoteAssetMetadata
// (what a HEAD of the source says), createAssetDownload (Hugging Face and Civitai only: 200 with the
// asset when the file is stored already, else 202 with a task fetched in the background), and the
// task route the contract names for following it, GET /api/tasks/{task_id}, answered with the
// fields the maker's web client reads (src/protocol/library.ts, LibraryTask).
import { randomUUID } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { DevState, RequestContext } from '../contract.js';
import { readJson, sendJson, sendLegacyError } from '../http-kit.js';
import { perState } from '../per-state.js';
import { isLibraryDownloadHost, type LibraryTask, type LibraryValidation } from '../../protocol/library.js';
import { fetchRemote, httpUrl, remoteFilename, remoteLength, RemoteFailure } from './remote.js';
import { libraryOf, type LibraryAsset } from './store.js';

/** Pickled formats the cloud will not store (the published ValidationError example: only SafeTensor). */
const PICKLE = /\.(ckpt|pt|pth|bin|pkl)$/i;

class TooLarge extends Error {}

interface Downloads {
  tasks: Map<string, LibraryTask>;
  /** source_url → the hash its download stored: "the file already exists in storage". */
  stored: Map<string, string>;
  /** Aborted when the server closes: no fetch outlives it. */
  closing: AbortController;
}

const downloadsOf = perState<Downloads>(() => ({ tasks: new Map(), stored: new Map(), closing: new AbortController() }));

export function closeLibraryDownloads(state: DevState): void {
  downloadsOf(state).closing.abort();
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function tagsOf(v: unknown): string[] | null {
  if (v === undefined) return [];
  return Array.isArray(v) && v.every((t) => typeof t === 'string' && t !== '') ? (v as string[]) : null;
}

function validation(filename: string): LibraryValidation {
  if (!PICKLE.test(filename)) return { is_valid: true, errors: [], warnings: [] };
  return { is_valid: false, errors: [{ code: 'FORMAT_NOT_ALLOWED', message: 'File format "PickleTensor" is not allowed. Allowed formats: [SafeTensor]', field: 'format' }], warnings: [] };
}

function sendFailure(ctx: RequestContext, err: unknown): void {
  if (err instanceof RemoteFailure) return sendLegacyError(ctx, err.status, err.status === 404 ? 'not_found' : err.status === 403 ? 'forbidden' : 'download_failed', err.message);
  if (err instanceof TooLarge) return sendLegacyError(ctx, 413, 'file_too_large', err.message);
  throw err;
}

/** Streams a remote answer into the blob store, refusing more than the upload limit. */
async function store(state: DevState, res: Response, url: URL): Promise<{ hash: string; size: number }> {
  const limit = state.options.maxUploadBytes;
  if (remoteLength(res) > limit) {
    await res.body?.cancel();
    throw new TooLarge(`${url.host}'s file is ${remoteLength(res)} bytes; the limit is ${limit}`);
  }
  let seen = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      done(seen > limit ? new TooLarge(`the file is over the ${limit}-byte limit`) : null, chunk);
    },
  });
  const body = res.body ? Readable.fromWeb(res.body as WebReadableStream<Uint8Array>) : Readable.from([]);
  return state.blobs.put(body, [cap]);
}

function mimeOf(res: Response): string {
  return (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim();
}

/** uploadAsset, application/json: {url, name, tags?, user_metadata?, preview_id?}; the same content again returns that asset (200). */
export async function uploadFromUrl(ctx: RequestContext): Promise<void> {
  const body = await readJson(ctx);
  if (!isObject(body)) return sendLegacyError(ctx, 400, 'invalid_request', 'the body must be a JSON object with `url` and `name`');
  const url = httpUrl(body.url);
  if (!url) return sendLegacyError(ctx, 400, 'invalid_request', '`url` must be an HTTP or HTTPS URL');
  if (typeof body.name !== 'string' || body.name === '') return sendLegacyError(ctx, 400, 'invalid_request', '`name` is required (it gives the file its extension)');
  const tags = tagsOf(body.tags);
  if (!tags) return sendLegacyError(ctx, 400, 'invalid_request', '`tags` must be an array of tags');
  if (body.user_metadata !== undefined && !isObject(body.user_metadata)) return sendLegacyError(ctx, 400, 'invalid_request', '`user_metadata` must be an object');
  try {
    const res = await fetchRemote(ctx.state, url, 'GET');
    const { hash, size } = await store(ctx.state, res, url);
    const library = libraryOf(ctx.state);
    const existing = library.byHash(hash);
    if (existing) return sendJson(ctx, 200, { ...existing, created_new: false });
    const asset = library.add({ name: body.name, asset_hash: hash, size, mime_type: mimeOf(res), tags, user_metadata: body.user_metadata ?? {}, preview_id: typeof body.preview_id === 'string' ? body.preview_id : null });
    sendJson(ctx, 201, { ...asset, created_new: true });
  } catch (err) {
    sendFailure(ctx, err);
  }
}

/** getRemoteAssetMetadata: what a HEAD of the source says, the file never fetched. */
export async function remoteMetadata(ctx: RequestContext): Promise<void> {
  const url = httpUrl(ctx.url.searchParams.get('url'));
  if (!url) return sendLegacyError(ctx, 400, 'invalid_request', 'give `url`, an HTTP or HTTPS download URL');
  let res: Response;
  try {
    res = await fetchRemote(ctx.state, url, 'HEAD');
  } catch (err) {
    if (!(err instanceof RemoteFailure)) throw err;
    return sendLegacyError(ctx, 422, 'metadata_unavailable', `failed to retrieve metadata from the source: ${err.message}`);
  }
  const filename = remoteFilename(url, res.headers.get('content-disposition'));
  sendJson(ctx, 200, {
    content_length: remoteLength(res),
    content_type: mimeOf(res),
    filename,
    name: filename.replace(/\.[^.]+$/, ''),
    tags: [],
    validation: validation(filename),
  });
}

/** createAssetDownload: {source_url, tags?, user_metadata?, preview_id?}. */
export async function createDownload(ctx: RequestContext): Promise<void> {
  const body = await readJson(ctx);
  if (!isObject(body)) return sendLegacyError(ctx, 400, 'invalid_request', 'the body must be a JSON object with `source_url`');
  const url = httpUrl(body.source_url);
  if (!url) return sendLegacyError(ctx, 400, 'invalid_request', '`source_url` must be an HTTP or HTTPS URL');
  if (!isLibraryDownloadHost(url.hostname)) return sendLegacyError(ctx, 400, 'unsupported_source', `unsupported source ${url.host}: the URL must be from huggingface.co or civitai.com`);
  const tags = tagsOf(body.tags);
  if (!tags) return sendLegacyError(ctx, 422, 'invalid_request', '`tags` must be an array of tags');
  if (body.user_metadata !== undefined && !isObject(body.user_metadata)) return sendLegacyError(ctx, 422, 'invalid_request', '`user_metadata` must be an object');
  const metadata = body.user_metadata ?? {};
  const downloads = downloadsOf(ctx.state);
  const library = libraryOf(ctx.state);
  const known = downloads.stored.get(url.href);
  if (known && ctx.state.blobs.has(known)) {
    const existing = library.byHash(known);
    if (existing) return sendJson(ctx, 200, { ...existing, created_new: false });
    const asset = library.add({ name: remoteFilename(url), asset_hash: known, size: ctx.state.blobs.size(known)!, mime_type: 'application/octet-stream', tags, user_metadata: metadata });
    return sendJson(ctx, 200, { ...asset, created_new: true });
  }
  let head: Response;
  try {
    head = await fetchRemote(ctx.state, url, 'HEAD');
  } catch (err) {
    if (!(err instanceof RemoteFailure)) throw err;
    return sendLegacyError(ctx, 422, 'download_failed', err.message);
  }
  const filename = remoteFilename(url, head.headers.get('content-disposition'));
  const problems = validation(filename).errors ?? [];
  if (problems.length > 0) return sendLegacyError(ctx, 422, problems[0]!.code, problems.map((p) => p.message).join('; '));
  const now = new Date().toISOString();
  const task: LibraryTask = { id: randomUUID(), status: 'created', task_name: 'task:download_file', payload: { source_url: url.href, tags }, create_time: now, update_time: now };
  downloads.tasks.set(task.id, task);
  void runDownload(ctx.state, task, url, { tags, metadata, preview: typeof body.preview_id === 'string' ? body.preview_id : null });
  sendJson(ctx, 202, { task_id: task.id, status: task.status, message: 'Download task created. Use task_id to track progress.' });
}

async function runDownload(state: DevState, task: LibraryTask, url: URL, record: { tags: string[]; metadata: Record<string, unknown>; preview: string | null }): Promise<void> {
  const downloads = downloadsOf(state);
  const touch = (fields: Partial<LibraryTask>) => Object.assign(task, fields, { update_time: new Date().toISOString() });
  touch({ status: 'running', started_at: new Date().toISOString() });
  try {
    const res = await fetchRemote(state, url, 'GET', downloads.closing.signal);
    const filename = remoteFilename(url, res.headers.get('content-disposition'));
    const { hash, size } = await store(state, res, url);
    downloads.stored.set(url.href, hash);
    const library = libraryOf(state);
    const asset: LibraryAsset = library.byHash(hash) ?? library.add({ name: filename, asset_hash: hash, size, mime_type: mimeOf(res), tags: record.tags, user_metadata: record.metadata, preview_id: record.preview });
    touch({ status: 'completed', completed_at: new Date().toISOString(), result: { success: true, asset_id: asset.id, filename, bytes_downloaded: size, content_type: asset.mime_type, hash } });
  } catch (err) {
    const message = (err as Error).message;
    touch({ status: 'failed', completed_at: new Date().toISOString(), error_message: message, result: { success: false, error: message } });
  }
}

/** GET /api/tasks/{task_id}. */
export async function getTask(ctx: RequestContext, id: string): Promise<void> {
  const task = downloadsOf(ctx.state).tasks.get(id);
  if (!task) return sendLegacyError(ctx, 404, 'not_found', `no task ${id}`);
  sendJson(ctx, 200, task);
}
