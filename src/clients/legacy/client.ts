// Typed client for the legacy API (cloud API v1, deprecated). No printing: commands render. Every
// answer is untrusted, so each one is checked for the fields the commands rely on.
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import type { HttpClient, HttpRequest, HttpResponse } from '../../http/client.js';
import type { ChunkedBody } from '../../http/chunked-body.js';
import { segment } from '../../http/links.js';
import { multipartBody } from '../../http/multipart.js';
import type { WesError } from '../../errors.js';
import type { V1Features, V1JobDetail, V1JobsList, V1JobStatus, V1PromptRequest, V1PromptResponse, V1Queue, V1UploadResult } from '../../protocol/legacy.js';
import { parseJsonExact } from '../../util/exact-json.js';
import { badResponse as badResponseOf, isRecord, SAFE_ID } from '../shared/response-check.js';

export type ObjectInfo = Record<string, unknown>;

export interface UploadOptions {
  path: string;
  type: 'input' | 'temp';
  overwrite: boolean;
  /** Bytes of the file sent so far (for a progress line). */
  onProgress?: (sent: number) => void;
}

export interface MaskUploadOptions {
  path: string;
  type: 'input' | 'temp';
  originalRef: { filename: string; subfolder?: string; type?: string };
  onProgress?: (sent: number) => void;
}


export { isRecord };

export interface SubmitOptions {
  retries?: number;
  clientId?: string;
  promptId?: string;
}

/** object_info text read exactly, or undefined when it is not a JSON object. */
export function readObjectInfo(text: string): ObjectInfo | undefined {
  try {
    const value = parseJsonExact(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A malformed answer of this API family. */
export function badResponse(what: string, res: HttpResponse<unknown>): WesError {
  return badResponseOf('legacy', what, res);
}

export class LegacyClient {
  constructor(private readonly http: HttpClient) {}

  async objectInfo(): Promise<ObjectInfo> {
    const res = await this.http.json<unknown>({ family: 'legacy', url: '/api/object_info' });
    if (!isRecord(res.body)) throw badResponse('object_info is not a JSON object', res);
    return res.body;
  }

  /** object_info as sent (text) and read with every digit kept (KSampler's seed max is 2^64-1). */
  async objectInfoExact(): Promise<{ text: string; info: ObjectInfo }> {
    const res = await this.http.buffer({ family: 'legacy', url: '/api/object_info', headers: { accept: 'application/json' } });
    const text = res.body.toString('utf8');
    const info = readObjectInfo(text);
    if (!info) throw badResponse('object_info is not a JSON object', res);
    return { text, info };
  }

  /** One class's definition; null when the server has no such class (it answers `{}`, not 404). */
  async objectInfoOf(className: string): Promise<unknown> {
    const res = await this.http.json<unknown>({ family: 'legacy', url: `/api/object_info/${segment(className)}` });
    if (!isRecord(res.body)) throw badResponse('object_info is not a JSON object', res);
    return Object.hasOwn(res.body, className) ? res.body[className] : null;
  }

  /** A self-hosted engine's history entry of one prompt; null while it is queued, running, or unknown (`{}`). */
  async history(promptId: string): Promise<Record<string, unknown> | null> {
    const res = await this.http.json<unknown>({ family: 'legacy', url: `/api/history/${segment(promptId)}` });
    if (!isRecord(res.body)) throw badResponse('the history answer is not a JSON object', res);
    const entry = Object.hasOwn(res.body, promptId) ? res.body[promptId] : undefined;
    return isRecord(entry) ? entry : null;
  }

  /** A self-hosted engine's history (every ended prompt it keeps, oldest first; with `maxItems` the latest that many), by prompt id. */
  async allHistory(maxItems?: number): Promise<Record<string, unknown>> {
    const query = maxItems === undefined ? undefined : { max_items: String(maxItems) };
    const res = await this.http.json<unknown>({ family: 'legacy', url: '/api/history', query });
    if (!isRecord(res.body)) throw badResponse('the history answer is not a JSON object', res);
    return res.body;
  }

  /** The cloud's job list (GET /api/jobs): newest first, a page at a time. */
  async listJobs(query: { status?: string; offset: number; limit: number }): Promise<V1JobsList> {
    const params: Record<string, string> = { offset: String(query.offset), limit: String(query.limit) };
    if (query.status) params.status = query.status;
    const res = await this.http.json<unknown>({ family: 'legacy', url: '/api/jobs', query: params });
    const body = res.body;
    if (!isRecord(body) || !Array.isArray(body.jobs) || !isRecord(body.pagination)) throw badResponse('the job list lacks `jobs` or `pagination`', res);
    const jobs = body.jobs.filter((job): job is V1JobsList['jobs'][number] => isRecord(job) && typeof job.id === 'string' && typeof job.status === 'string');
    return { ...body, jobs, pagination: body.pagination as unknown as V1JobsList['pagination'] };
  }

  /** The cloud's full record of one job (GET /api/jobs/{id}), with its outputs once it has ended. */
  async job(promptId: string): Promise<V1JobDetail> {
    const res = await this.http.json<unknown>({ family: 'legacy', url: `/api/jobs/${segment(promptId)}` });
    if (!isRecord(res.body) || typeof res.body.status !== 'string') throw badResponse('the job answer has no `status`', res);
    return res.body as unknown as V1JobDetail;
  }

  /** Whether the server can send type-4 previews; an older server without the route cannot. */
  async features(): Promise<V1Features> {
    const res = await this.http.json<unknown>({ family: 'legacy', url: '/api/features', accept: [404], retries: 1 });
    if (res.status === 404 || !isRecord(res.body)) return { supports_preview_metadata: false };
    return { supports_preview_metadata: res.body.supports_preview_metadata === true };
  }

  upload(options: UploadOptions): Promise<V1UploadResult> {
    return this.postImage('/api/upload/image', options.path, { type: options.type, overwrite: options.overwrite ? 'true' : 'false' }, options.onProgress);
  }

  uploadMask(options: MaskUploadOptions): Promise<V1UploadResult> {
    return this.postImage('/api/upload/mask', options.path, {
      type: options.type,
      subfolder: options.originalRef.subfolder ?? '',
      original_ref: JSON.stringify(options.originalRef),
    }, options.onProgress);
  }

  /** Multipart with the file as `image` plus text fields; no hand-set Content-Type. */
  private async postImage(route: string, path: string, fields: Record<string, string>, onProgress?: (sent: number) => void): Promise<V1UploadResult> {
    const form = await multipartBody(
      [{ name: 'image', path, filename: basename(path) }, ...Object.entries(fields).map(([name, value]) => ({ name, value }))],
      onProgress,
    );
    return this.uploadResult(await this.http.json<unknown>({ family: 'legacy', method: 'POST', url: route, headers: form.headers, body: form.body }));
  }

  private uploadResult(res: HttpResponse<unknown>): V1UploadResult {
    const body = res.body;
    if (!isRecord(body) || typeof body.name !== 'string') throw badResponse('the upload answer has no `name`', res);
    return { ...body, name: body.name, subfolder: typeof body.subfolder === 'string' ? body.subfolder : '' } as V1UploadResult;
  }

  /**
   * The raw answer: a 200 may still carry `error` and `node_errors`, which the caller reports.
   * `retries` overrides the HTTP layer's own (a batch retries its submits itself, to find a lost one first).
   * `clientId` names the WebSocket that gets the prompt's messages (an engine sends them to it alone);
   * `promptId` is an id of wes's own, which a newer engine uses as given (read the answer's id all the same).
   */
  async submit(workflow: Record<string, unknown>, extraData?: Record<string, unknown>, options: SubmitOptions = {}): Promise<V1PromptResponse> {
    const json: V1PromptRequest = { prompt: workflow };
    if (extraData && Object.keys(extraData).length > 0) json.extra_data = extraData;
    if (options.clientId !== undefined) json.client_id = options.clientId;
    if (options.promptId !== undefined) json.prompt_id = options.promptId;
    const res = await this.http.json<unknown>({ family: 'legacy', method: 'POST', url: '/api/prompt', json, retries: options.retries });
    if (!isRecord(res.body)) throw badResponse('the submit answer is not a JSON object', res);
    const body = res.body as V1PromptResponse;
    if (body.error === undefined && typeof body.prompt_id !== 'string') throw badResponse('the submit answer has no `prompt_id`', res);
    if (typeof body.prompt_id === 'string' && !SAFE_ID.test(body.prompt_id)) throw badResponse('the submit answer has a `prompt_id` that is not printable ASCII', res);
    return body;
  }

  async status(promptId: string): Promise<V1JobStatus> {
    const res = await this.http.json<unknown>({ family: 'legacy', url: `/api/job/${segment(promptId)}/status` });
    if (!isRecord(res.body) || typeof res.body.status !== 'string') throw badResponse('the status answer has no `status`', res);
    return { ...res.body, status: res.body.status };
  }

  async queue(): Promise<V1Queue> {
    const res = await this.http.json<unknown>({ family: 'legacy', url: '/api/queue' });
    const body = res.body;
    if (!isRecord(body) || !Array.isArray(body.queue_running) || !Array.isArray(body.queue_pending)) {
      throw badResponse('the queue answer lacks `queue_running` or `queue_pending`', res);
    }
    return body as unknown as V1Queue;
  }

  /** The answer body is not part of the interface; whatever JSON came back is returned. */
  async deleteFromQueue(promptIds: string[]): Promise<unknown> {
    const res = await this.http.json<unknown>({ family: 'legacy', method: 'POST', url: '/api/queue', json: { delete: promptIds } });
    return res.body;
  }

  /** Empties the pending queue (`{clear: true}`); running prompts run on. The answer body is not relied on. */
  async clearQueue(): Promise<unknown> {
    const res = await this.http.json<unknown>({ family: 'legacy', method: 'POST', url: '/api/queue', json: { clear: true } });
    return res.body;
  }

  /** `promptId`: an engine that reads it (0.3.64) stops that prompt only, and only while it runs. */
  async interrupt(promptId?: string): Promise<unknown> {
    const json = promptId === undefined ? undefined : { prompt_id: promptId };
    const res = await this.http.json<unknown>({ family: 'legacy', method: 'POST', url: '/api/interrupt', json });
    return res.body;
  }

  /** The file behind an output reference: the 302's signed URL is fetched with no credential. */
  async view(ref: ViewRef): Promise<HttpResponse<Readable>> {
    return this.http.redirectToSigned(viewRequest(ref));
  }

  /** view() with the body as chunks, for saving it into a file (see ChunkedBody). */
  async viewChunks(ref: ViewRef): Promise<HttpResponse<ChunkedBody>> {
    return this.http.redirectToSignedChunks(viewRequest(ref));
  }
}

export interface ViewRef {
  filename: string;
  subfolder?: string;
  type?: string;
}

function viewRequest(ref: ViewRef): HttpRequest {
  return { family: 'legacy', url: '/api/view', query: { filename: ref.filename, subfolder: ref.subfolder ?? '', type: ref.type ?? 'output' } };
}
