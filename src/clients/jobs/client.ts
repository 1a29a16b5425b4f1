// Typed client for the jobs API (job API v2): jobs and assets. No printing: commands render. Links
// in answers are followed (resolved against the origin of the answer that carried them), never
// rebuilt from ids; the only paths built here are the operations the interface names by path.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { HttpClient, HttpResponse } from '../../http/client.js';
import type { ChunkedBody } from '../../http/chunked-body.js';
import { segment } from '../../http/links.js';
import { ApiError, ExitCode, WesError } from '../../errors.js';
import type { DeploymentKnowledge, DeploymentMemory, ListDialect } from './deployment.js';
import { labelsOf, type ReadLabels } from './labels.js';
import { SAFE_ID } from '../shared/response-check.js';
import type { UploadMemory } from './upload-memory.js';
import type { JobApiSetting } from '../../config/keys.js';
import { badResponse, checkAsset, checkJob, checkJobWorkflow, isRecord } from './check.js';
import { parseJsonExact } from '../../util/exact-json.js';
import type { AssetFromHashRequest, AssetRecord, Job, JobLabels, JobWorkflowResponse } from '../../protocol/jobs.js';

/** A Job with the URL that answered it: host-relative links in it resolve against that origin. */
export interface FetchedJob {
  job: Job;
  from: URL;
}

export interface ListQuery {
  status?: string;
  limit?: number;
  cursor?: string;
  /** Serverless label filters (`metadata[k]=v`, at most 3). */
  labels?: JobLabels;
}

/** A list page, the answer's Date header and when it was asked and answered (this machine's clock). */
export interface ListRead {
  page: ListPage;
  from: URL;
  serverDate?: string;
  askedAt: number;
  answeredAt: number;
}

/** Hears one upload as it goes (a progress line); told when it is over, however it ended. */
export interface UploadObserver {
  /** Bytes of the file handed to the connection so far (back to 0 when a request is retried). */
  sent(bytes: number): void;
  done(): void;
}

export interface SubmitOptions {
  retries?: number;
  /** Told the body's size before it is sent; what it returns hears the bytes go (a large workflow's progress). */
  observeBody?: (bytes: number) => Promise<UploadObserver | undefined>;
}

export interface FetchedAsset {
  asset: AssetRecord;
  from: URL;
}

export interface UploadRequest {
  path: string;
  contentType: string;
  /** The name the workflow may refer to the asset by. */
  filePath: string;
  expectedHash?: string;
  tags?: string[];
  /** Retention override in seconds. */
  expiresIn?: number;
  /** Single use: a new one for every upload (the HTTP layer resends it only where that is safe). */
  idempotencyKey?: string;
  /** Bytes of the file sent so far (for a progress line). */
  onProgress?: (sent: number) => void;
}

/** What a logs link answered: the body as a stream (plain text, or the JSON log object), or nothing (204). */
export type LogsAnswer = { kind: 'text'; body: Readable; contentType: string; contentLength?: string; origin: string } | { kind: 'empty' };

// One page of `GET /api/v2/jobs`, read whatever the deployment: the self-hosted proxy's
// `{jobs, truncated}` of whole Jobs, or a serverless `{jobs, next_cursor}` of stored records (no
// outputs, no urls). Read leniently, as the maker's clients do: an item needs an `id` and a
// `status` (one without is an error, never skipped), everything else is taken as it comes.

/** A list item, as much as every deployment's list says about a job. */
export interface ListedJob {
  id: string;
  status: string;
  /** `created_at` (a whole Job) or `create_time` (a stored record). */
  createdAt?: string;
  updatedAt?: string;
  labels: ReadLabels;
  /** The item as the server sent it (printed as it is by `jobs list --remote --json`). */
  raw: Record<string, unknown>;
}

export interface ListPage {
  /** `truncated`: the proxy's page; `cursor`: a serverless page (`next_cursor`, or none on the last). */
  dialect: Exclude<ListDialect, 'none'>;
  jobs: ListedJob[];
  truncated?: boolean;
  nextCursor?: string;
  /** The answer carried neither `truncated` nor `next_cursor` (an earlier self-hosted release): whether the list is whole is not said. */
  unsaid?: boolean;
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Reads a list answer. `cursorDialect`: the deployment is known to page by cursor (its last page
 * carries neither `next_cursor` nor `truncated`); otherwise the answer's own fields tell.
 */
export function readListPage(res: HttpResponse<unknown>, cursorDialect: boolean): ListPage {
  const body = res.body;
  if (!isRecord(body) || !Array.isArray(body.jobs)) throw badResponse('the job list has no `jobs` array', res);
  const jobs = body.jobs.map((item, i): ListedJob => {
    if (!isRecord(item)) throw badResponse(`item ${i} of the job list is not an object`, res);
    if (typeof item.id !== 'string' || !SAFE_ID.test(item.id)) throw badResponse(`item ${i} of the job list has no \`id\` of printable ASCII`, res);
    if (typeof item.status !== 'string') throw badResponse(`item ${i} of the job list has no \`status\``, res);
    return {
      id: item.id,
      status: item.status,
      createdAt: optionalString(item.created_at) ?? optionalString(item.create_time),
      updatedAt: optionalString(item.update_time) ?? optionalString(item.completed_at),
      labels: labelsOf(item.metadata),
      raw: item,
    };
  });
  if (body.truncated !== undefined && typeof body.truncated !== 'boolean') throw badResponse('the job list `truncated` is not a boolean', res);
  if (body.next_cursor !== undefined && body.next_cursor !== null && typeof body.next_cursor !== 'string') {
    throw badResponse('the job list `next_cursor` is not a string', res);
  }
  const nextCursor = typeof body.next_cursor === 'string' && body.next_cursor !== '' ? body.next_cursor : undefined;
  if (typeof body.truncated === 'boolean' && !cursorDialect && !('next_cursor' in body)) return { dialect: 'truncated', jobs, truncated: body.truncated };
  if (cursorDialect || 'next_cursor' in body) return { dialect: 'cursor', jobs, nextCursor };
  // Neither field: a list of no known deployment; nothing in it proves it whole.
  return { dialect: 'truncated', jobs, truncated: true, unsaid: true };
}

export class JobsClient {
  private setting: JobApiSetting = 'auto';
  private memory: (DeploymentMemory & Partial<UploadMemory>) | null = null;
  private knowledge?: Promise<DeploymentKnowledge>;

  constructor(readonly http: HttpClient) {}

  /** The factory gives the client the setting that may pin the deployment, and the memory. */
  useDeployment(setting: JobApiSetting, memory: DeploymentMemory & Partial<UploadMemory>): void {
    this.setting = setting;
    this.memory = memory;
    this.knowledge = undefined;
  }

  /** The asset an earlier upload of bytes with this local hash became here, when the service stored them under another hash. */
  async recallUpload(localHash: string): Promise<string | undefined> {
    return this.memory?.recall?.(this.http.baseUrlFor('jobs'), localHash).catch(() => undefined);
  }

  async rememberUpload(localHash: string, assetId: string): Promise<void> {
    await this.memory?.remember?.(this.http.baseUrlFor('jobs'), localHash, assetId).catch(() => undefined);
  }

  /** Which deployment answers at the base URL (its dialect). Loaded on first use: most commands never ask. */
  deployment(): Promise<DeploymentKnowledge> {
    return (this.knowledge ??= import('./deployment.js').then((m) => new m.DeploymentKnowledge(this.http.baseUrlFor('jobs'), this.setting, this.memory)));
  }

  async get(id: string): Promise<FetchedJob> {
    return this.readJob(`/api/v2/jobs/${segment(id)}`);
  }

  /**
   * One page of `GET /api/v2/jobs`, newest first: the self-hosted proxy's (`status`, `limit`;
   * `{jobs, truncated}`) or a serverless deployment's (`limit`, `cursor`, up to 3 label filters;
   * `{jobs, next_cursor}`). A server without a list answers 404 or 501, thrown as the ApiError it is.
   * `cursorDialect`: the deployment is known to page by cursor.
   */
  async listPage(query: ListQuery = {}, cursorDialect = false): Promise<ListRead> {
    const params: Record<string, string | number | undefined> = { status: query.status, limit: query.limit, cursor: query.cursor };
    for (const [k, v] of Object.entries(query.labels ?? {})) params[`metadata[${k}]`] = v;
    const askedAt = this.http.clock.now();
    let res;
    try {
      res = await this.http.json<unknown>({ family: 'jobs', url: '/api/v2/jobs', query: params });
    } catch (err) {
      // Comfy Cloud has no list: its 501 says which deployment this is.
      if (err instanceof ApiError && err.status === 501 && err.code === 'not_implemented') await (await this.deployment()).learn('cloud');
      throw err;
    }
    const page = readListPage(res, cursorDialect);
    await (await this.deployment()).learn(page.dialect === 'cursor' ? 'serverless' : typeof (res.body as { truncated?: unknown }).truncated === 'boolean' ? 'self-hosted' : undefined);
    return { page, from: res.url, serverDate: res.headers.date, askedAt, answeredAt: this.http.clock.now() };
  }

  /** `GET /api/v2/jobs/{id}/workflow`: the graph behind a job, and which shape it is in. */
  async workflow(id: string): Promise<JobWorkflowResponse> {
    // Read with numbers exact: a seed past 2^53 must come back as it ran (`jobs rerun` sends it again).
    const res = await this.http.buffer({ family: 'jobs', url: `/api/v2/jobs/${segment(id)}/workflow`, headers: { accept: 'application/json' } });
    let body: unknown;
    try {
      body = parseJsonExact(res.body.toString('utf8'));
    } catch {
      throw badResponse('the workflow answer is not valid JSON', res);
    }
    return checkJobWorkflow({ ...res, body });
  }

  /** Re-reads a job through its own `urls.self`. */
  async refresh(current: FetchedJob, options: { retries?: number } = {}): Promise<FetchedJob> {
    return this.readJob(this.http.link(current.job.urls.self, current.from), options.retries);
  }

  /** Follows `urls.cancel`; the operation is idempotent (cancelling twice is a no-op), so it is retried like a read. */
  async cancel(current: FetchedJob): Promise<FetchedJob> {
    if (!current.job.urls.cancel) {
      throw new WesError('the service offers no cancel link for this job', { exitCode: ExitCode.ERROR, code: 'bad_response', origin: 'jobs' });
    }
    const url = this.http.link(current.job.urls.cancel, current.from);
    const res = await this.http.json<unknown>({ family: 'jobs', method: 'POST', url, resend: 'replay' });
    return { job: checkJob(res), from: res.url };
  }

  /** Opens `urls.events` (an SSE stream; destroy the body to close it). No retries: polling covers. */
  async events(current: FetchedJob): Promise<HttpResponse<Readable>> {
    const url = this.http.link(current.job.urls.events, current.from);
    return this.http.stream({ family: 'jobs', url, headers: { accept: 'text/event-stream' }, retries: 0 });
  }

  /** Follows `urls.logs`; the caller checks that the job has one. */
  async logs(current: FetchedJob, logsLink: string): Promise<LogsAnswer> {
    const url = this.http.link(logsLink, current.from);
    const res = await this.http.stream({ family: 'jobs', url, headers: { accept: 'application/json, text/plain;q=0.9' }, accept: [204] });
    if (res.status === 204) {
      res.body.resume?.();
      return { kind: 'empty' };
    }
    return { kind: 'text', body: res.body, contentType: res.headers['content-type'] ?? '', contentLength: res.headers['content-length'], origin: res.url.origin };
  }

  async getAsset(id: string): Promise<FetchedAsset> {
    const res = await this.http.json<unknown>({ family: 'jobs', url: `/api/v2/assets/${segment(id)}` });
    return { asset: checkAsset(res), from: res.url };
  }

  /** `HEAD /api/v2/assets/by-hash/{hash}`: whether this caller may mint an asset from that blob. */
  async blobExists(hash: string): Promise<boolean> {
    const res = await this.http.buffer({ family: 'jobs', method: 'HEAD', url: `/api/v2/assets/by-hash/${segment(hash)}`, accept: [404] });
    return res.status === 200;
  }

  /** `DELETE /api/v2/assets/{id}` (204); 404 and 409 `asset_in_use` are thrown as the ApiErrors they are. */
  async deleteAsset(id: string): Promise<void> {
    await this.http.buffer({ family: 'jobs', method: 'DELETE', url: `/api/v2/assets/${segment(id)}` });
  }

  /**
   * Creates an asset over a blob the service already holds; throws ApiError `blob_not_found` when it
   * holds none. It takes no key: sent twice it makes two records over the same bytes, which is harmless.
   */
  async assetFromHash(request: AssetFromHashRequest): Promise<FetchedAsset> {
    const res = await this.http.json<unknown>({ family: 'jobs', method: 'POST', url: '/api/v2/assets/from-hash', json: request, resend: 'replay' });
    return { asset: checkAsset(res), from: res.url };
  }

  async uploadAsset(request: UploadRequest): Promise<FetchedAsset> {
    // Loaded here: its file reads (node:fs/promises) are for uploads only, not every job command.
    const { multipartBody } = await import('../../http/multipart.js');
    // Fields go before the file so a streaming server knows the expected hash before the bytes arrive.
    const form = await multipartBody([
      { name: 'content_type', value: request.contentType },
      { name: 'file_path', value: request.filePath },
      ...(request.expectedHash ? [{ name: 'expected_hash', value: request.expectedHash }] : []),
      ...(request.tags ?? []).map((tag) => ({ name: 'tags', value: tag })),
      ...(request.expiresIn !== undefined ? [{ name: 'expires_in', value: String(request.expiresIn) }] : []),
      { name: 'file', path: request.path, filename: request.filePath, contentType: request.contentType },
    ], request.onProgress);
    const res = await this.http.json<unknown>({
      family: 'jobs',
      method: 'POST',
      url: '/api/v2/assets',
      headers: form.headers,
      body: form.body,
      idempotencyKey: request.idempotencyKey ?? randomUUID(),
    });
    return { asset: checkAsset(res), from: res.url };
  }

  /**
   * The bytes of an asset through its content route: served directly (200, or 206 for a Range) where
   * the server stores them itself, else a redirect to a signed URL, followed without the credential.
   */
  async assetContent(id: string, offset = 0): Promise<HttpResponse<ChunkedBody>> {
    return this.http.redirectToSignedChunks({ family: 'jobs', url: `/api/v2/assets/${segment(id)}/content` }, rangeHeader(offset));
  }

  /**
   * A URL another service can fetch an asset's bytes from, without any credential: the content
   * route is asked without following it; its redirect's Location (a signed URL) is the answer, and
   * where the server serves the bytes itself (200) the content route's own URL is. The body of a
   * 200 is not read.
   */
  async assetUrl(id: string): Promise<URL> {
    const res = await this.http.stream({ family: 'jobs', url: `/api/v2/assets/${segment(id)}/content`, accept: [...REDIRECTS] });
    if (!REDIRECTS.includes(res.status)) {
      // The bytes are not wanted: the stream of a 2xx is aborted, and its abort error is dropped.
      res.body.once('error', () => undefined).destroy();
      return res.url;
    }
    if (!res.headers.location) throw new WesError('the server answered the asset content route with a redirect without a Location', { exitCode: ExitCode.ERROR, code: 'bad_redirect' });
    const url = this.http.link(res.headers.location, res);
    if (url.username || url.password) throw new WesError('the asset URL the server gave carries a user name or password; refusing to pass it on', { exitCode: ExitCode.ERROR, code: 'bad_redirect' });
    return url;
  }

  /** A content link (output or asset `url`): the credential only on the job API's own origin (see HttpClient.contentChunks). */
  async content(url: URL, offset = 0): Promise<HttpResponse<ChunkedBody>> {
    return this.http.contentChunks(url, rangeHeader(offset));
  }

  private async readJob(url: string | URL, retries?: number): Promise<FetchedJob> {
    const res = await this.http.json<unknown>({ family: 'jobs', url, retries });
    return { job: checkJob(res), from: res.url };
  }
}

const REDIRECTS = [301, 302, 303, 307, 308];

export function rangeHeader(offset: number): Record<string, string> {
  return offset > 0 ? { range: `bytes=${offset}-` } : {};
}
