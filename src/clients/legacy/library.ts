// Comfy Cloud's asset library (cloud API v1, openapi-cloud.yaml tag `asset`): the account's models
// and inputs, found by tags. Typed client; every answer is checked for the fields commands use.
import { basename } from 'node:path';
import type { HttpClient, HttpResponse } from '../../http/client.js';
import { segment } from '../../http/links.js';
import { multipartBody } from '../../http/multipart.js';
import { LIBRARY_TASK_STATUSES, type LibraryAsset, type LibraryAssetCreated, type LibraryAssetList, type LibraryAssetUpdated, type LibraryDownloadStarted, type LibraryRemoteMetadata, type LibraryTagHistogram, type LibraryTagList, type LibraryTagsChanged, type LibraryTask, type LibraryTaskStatus } from '../../protocol/library.js';
import { badResponse, isRecord } from '../shared/response-check.js';

export interface LibraryFilter {
  includeTags?: string[];
  excludeTags?: string[];
  nameContains?: string;
}

export interface LibraryPage extends LibraryFilter {
  limit?: number;
  offset?: number;
  sort?: string;
  order?: 'asc' | 'desc';
}

export interface LibraryUpload {
  path: string;
  name?: string;
  tags: string[];
  onProgress?: (sent: number) => void;
}

/** A file the cloud fetches from a URL into the library (uploadAsset's JSON form). */
export interface LibraryUrlUpload {
  url: string;
  name: string;
  tags: string[];
  userMetadata?: Record<string, unknown>;
}

/** createAssetDownload's request: a Hugging Face or Civitai file downloaded in the background. */
export interface LibraryDownload {
  sourceUrl: string;
  tags: string[];
  userMetadata?: Record<string, unknown>;
}

/** What createAssetDownload answered: the asset at once (200: the file was stored already), or a task. */
export type LibraryDownloadAnswer = { kind: 'ready'; asset: LibraryAssetCreated } | { kind: 'started'; task: LibraryDownloadStarted };

function isTaskStatus(v: unknown): v is LibraryTaskStatus {
  return typeof v === 'string' && (LIBRARY_TASK_STATUSES as readonly string[]).includes(v);
}

function isAsset(v: unknown): v is LibraryAsset {
  return isRecord(v) && typeof v.id === 'string' && typeof v.name === 'string' && typeof v.size === 'number';
}

function filterQuery(filter: LibraryFilter): Record<string, string | undefined> {
  return {
    include_tags: filter.includeTags?.length ? filter.includeTags.join(',') : undefined,
    exclude_tags: filter.excludeTags?.length ? filter.excludeTags.join(',') : undefined,
    name_contains: filter.nameContains,
  };
}

export class LibraryClient {
  constructor(private readonly http: HttpClient) {}

  async list(page: LibraryPage): Promise<LibraryAssetList> {
    const res = await this.http.json<unknown>({
      family: 'legacy',
      url: '/api/assets',
      query: { ...filterQuery(page), limit: page.limit, offset: page.offset, sort: page.sort, order: page.order },
    });
    const body = res.body;
    if (!isRecord(body) || !Array.isArray(body.assets) || typeof body.has_more !== 'boolean') throw badResponse('legacy', 'the asset list lacks `assets` or `has_more`', res);
    return { assets: body.assets.filter(isAsset), total: typeof body.total === 'number' ? body.total : body.assets.length, has_more: body.has_more };
  }

  async get(id: string): Promise<LibraryAsset> {
    return this.asset(await this.http.json<unknown>({ family: 'legacy', url: `/api/assets/${segment(id)}` }));
  }

  /** Whether content with this blake3 hash is already stored (HEAD /api/assets/hash/{hash}). */
  async hasHash(hash: string): Promise<boolean> {
    const res = await this.http.buffer({ family: 'legacy', method: 'HEAD', url: `/api/assets/hash/${segment(hash)}`, accept: [404] });
    return res.status === 200;
  }

  /** A record over content already stored: nothing is uploaded. */
  async fromHash(hash: string, name: string, tags: string[]): Promise<LibraryAssetCreated> {
    return this.created(await this.http.json<unknown>({ family: 'legacy', method: 'POST', url: '/api/assets/from-hash', json: { hash, name, tags } }));
  }

  /** Multipart upload: the file, its name, and each tag as its own `tags` part (an array in a form). */
  async upload(upload: LibraryUpload): Promise<LibraryAssetCreated> {
    const form = await multipartBody(
      [
        { name: 'file', path: upload.path, filename: basename(upload.path) },
        { name: 'name', value: upload.name ?? basename(upload.path) },
        ...upload.tags.map((tag) => ({ name: 'tags', value: tag })),
      ],
      upload.onProgress,
    );
    return this.created(await this.http.json<unknown>({ family: 'legacy', method: 'POST', url: '/api/assets', headers: form.headers, body: form.body }));
  }

  /** uploadAsset's JSON form: the cloud fetches the file at `url` itself (wes never contacts that origin). */
  async addFromUrl(upload: LibraryUrlUpload): Promise<LibraryAssetCreated> {
    const json = { url: upload.url, name: upload.name, tags: upload.tags, ...(upload.userMetadata ? { user_metadata: upload.userMetadata } : {}) };
    return this.created(await this.http.json<unknown>({ family: 'legacy', method: 'POST', url: '/api/assets', json }));
  }

  /** What the cloud learns of a remote file without downloading it (getRemoteAssetMetadata). */
  async remoteMetadata(url: string): Promise<LibraryRemoteMetadata> {
    const res = await this.http.json<unknown>({ family: 'legacy', url: '/api/assets/remote-metadata', query: { url } });
    if (!isRecord(res.body) || typeof res.body.content_length !== 'number') throw badResponse('legacy', 'the remote metadata lacks `content_length`', res);
    return res.body as unknown as LibraryRemoteMetadata;
  }

  /** createAssetDownload: 200 with the asset when the file is stored already, else 202 with a task. */
  async download(download: LibraryDownload): Promise<LibraryDownloadAnswer> {
    const json = { source_url: download.sourceUrl, tags: download.tags, ...(download.userMetadata ? { user_metadata: download.userMetadata } : {}) };
    const res = await this.http.json<unknown>({ family: 'legacy', method: 'POST', url: '/api/assets/download', json });
    if (res.status !== 202) return { kind: 'ready', asset: this.created(res) };
    if (!isRecord(res.body) || typeof res.body.task_id !== 'string' || !isTaskStatus(res.body.status)) throw badResponse('legacy', 'the download answer lacks `task_id` or a known `status`', res);
    return { kind: 'started', task: res.body as unknown as LibraryDownloadStarted };
  }

  /** A background task (GET /api/tasks/{id}: named by the contract, its answer unpublished; see LibraryTask). */
  async task(id: string): Promise<LibraryTask> {
    const res = await this.http.json<unknown>({ family: 'legacy', url: `/api/tasks/${segment(id)}` });
    if (!isRecord(res.body) || !isTaskStatus(res.body.status)) throw badResponse('legacy', 'the task has no known `status` (created, running, completed, failed)', res);
    const result = isRecord(res.body.result) ? res.body.result : undefined;
    return { ...(res.body as unknown as LibraryTask), id: typeof res.body.id === 'string' ? res.body.id : id, result: result as LibraryTask['result'] };
  }

  async update(id: string, fields: { name?: string; tags?: string[] }): Promise<LibraryAssetUpdated> {
    const res = await this.http.json<unknown>({ family: 'legacy', method: 'PUT', url: `/api/assets/${segment(id)}`, json: fields });
    if (!isRecord(res.body) || typeof res.body.id !== 'string') throw badResponse('legacy', 'the update answer has no `id`', res);
    return res.body as unknown as LibraryAssetUpdated;
  }

  async changeTags(id: string, tags: string[], add: boolean): Promise<LibraryTagsChanged> {
    const res = await this.http.json<unknown>({ family: 'legacy', method: add ? 'POST' : 'DELETE', url: `/api/assets/${segment(id)}/tags`, json: { tags } });
    if (!isRecord(res.body) || !Array.isArray(res.body.total_tags)) throw badResponse('legacy', 'the tags answer has no `total_tags`', res);
    return res.body as unknown as LibraryTagsChanged;
  }

  async remove(id: string): Promise<void> {
    await this.http.buffer({ family: 'legacy', method: 'DELETE', url: `/api/assets/${segment(id)}`, accept: [204] });
  }

  async tags(query: { prefix?: string; limit?: number; offset?: number; order?: string }): Promise<LibraryTagList> {
    const res = await this.http.json<unknown>({ family: 'legacy', url: '/api/tags', query });
    if (!isRecord(res.body) || !Array.isArray(res.body.tags)) throw badResponse('legacy', 'the tag list lacks `tags`', res);
    const tags = res.body.tags.filter((t): t is { name: string; count: number } => isRecord(t) && typeof t.name === 'string' && typeof t.count === 'number');
    return { tags, total: typeof res.body.total === 'number' ? res.body.total : tags.length, has_more: res.body.has_more === true };
  }

  /** The tags on the assets a filter finds, with how many carry each (getAssetTagHistogram). */
  async refine(filter: LibraryFilter & { limit?: number }): Promise<LibraryTagHistogram> {
    const res = await this.http.json<unknown>({ family: 'legacy', url: '/api/assets/tags/refine', query: { ...filterQuery(filter), limit: filter.limit } });
    if (!isRecord(res.body) || !isRecord(res.body.tag_counts)) throw badResponse('legacy', 'the tag histogram lacks `tag_counts`', res);
    return res.body as unknown as LibraryTagHistogram;
  }

  private asset(res: HttpResponse<unknown>): LibraryAsset {
    if (!isAsset(res.body)) throw badResponse('legacy', 'the asset lacks `id`, `name` or `size`', res);
    return res.body;
  }

  private created(res: HttpResponse<unknown>): LibraryAssetCreated {
    const asset = this.asset(res);
    return { ...asset, created_new: (res.body as Record<string, unknown>).created_new === true };
  }
}
