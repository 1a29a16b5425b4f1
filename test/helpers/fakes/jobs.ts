// A scripted job API client for verb unit tests: each job id has the snapshots the service would
// answer, in turn (get and refresh take the next one and stay on the last), assets by id, a job
// list; every call is recorded with its arguments. An unknown id answers the 404 the HTTP layer
// would throw.
import { ApiError } from '../../../src/errors.js';
import type { FetchedAsset, FetchedJob, ListQuery, ListRead } from '../../../src/clients/jobs/client.js';
import { readListPage } from '../../../src/clients/jobs/client.js';
import type { HttpResponse } from '../../../src/http/client.js';
import type { AssetRecord, Job, JobList } from '../../../src/protocol/jobs.js';

export const ORIGIN = 'https://jobs.example.test';

export interface Call {
  method: string;
  args: unknown[];
}

/** A job as the service answers it; `over` replaces fields. */
export function job(over: Partial<Job> & { id: string }): Job {
  const self = `/api/v2/jobs/${over.id}`;
  return {
    status: 'queued',
    created_at: '2026-03-01T11:58:00Z',
    started_at: null,
    completed_at: null,
    expires_at: '2026-03-08T11:58:00Z',
    queue_position: null,
    progress: null,
    outputs: [],
    error: null,
    urls: { self, events: `${self}/events`, cancel: `${self}/cancel` },
    ...over,
  };
}

export function asset(over: Partial<AssetRecord> & { id: string }): AssetRecord {
  return {
    hash: 'blake3:' + 'ab'.repeat(32),
    size_bytes: 5,
    content_type: 'image/png',
    created_at: '2026-03-01T11:00:00Z',
    url: `/api/v2/assets/${over.id}/content`,
    url_expires_at: '2026-03-01T13:00:00Z',
    ...over,
  };
}

export function notFound(what: string): ApiError {
  return new ApiError(`${what} not found`, { status: 404, origin: 'jobs', code: 'not_found' });
}

export class FakeJobsClient {
  readonly calls: Call[] = [];
  /** What a cancel turns the job into (default: its status `canceling`, then the snapshots that follow). */
  cancelAnswer?: (current: Job) => Job;
  /** Thrown by list() instead of answering (a server with no list). */
  listError?: unknown;
  /** Thrown by deleteAsset for these ids (a 409 asset_in_use). */
  readonly deleteErrors = new Map<string, unknown>();
  readonly http = { close: async () => undefined };
  private readonly reads = new Map<string, Job[]>();

  constructor(
    jobs: Record<string, Job[]> = {},
    private readonly assets: Record<string, AssetRecord> = {},
    private readonly jobList: JobList = { jobs: [], truncated: false },
  ) {
    for (const [id, snapshots] of Object.entries(jobs)) this.reads.set(id, [...snapshots]);
  }

  names(): string[] {
    return this.calls.map((c) => c.method);
  }

  private fetched(j: Job): FetchedJob {
    return { job: j, from: new URL(j.urls.self, ORIGIN) };
  }

  private next(id: string): FetchedJob {
    const queue = this.reads.get(id);
    if (!queue?.length) throw notFound(`job ${id}`);
    return this.fetched(queue.length > 1 ? queue.shift()! : queue[0]!);
  }

  async get(id: string): Promise<FetchedJob> {
    this.calls.push({ method: 'get', args: [id] });
    return this.next(id);
  }

  async refresh(current: FetchedJob): Promise<FetchedJob> {
    this.calls.push({ method: 'refresh', args: [current.job.id] });
    return this.next(current.job.id);
  }

  async cancel(current: FetchedJob): Promise<FetchedJob> {
    this.calls.push({ method: 'cancel', args: [current.job.id] });
    return this.fetched(this.cancelAnswer ? this.cancelAnswer(current.job) : { ...current.job, status: 'canceling' });
  }

  async listPage(query: ListQuery = {}): Promise<ListRead> {
    this.calls.push({ method: 'listPage', args: [query] });
    if (this.listError) throw this.listError;
    const from = new URL('/api/v2/jobs', ORIGIN);
    const res = { status: 200, headers: {}, url: from, body: this.jobList } as unknown as HttpResponse<unknown>;
    return { page: readListPage(res, false), from, askedAt: Date.now(), answeredAt: Date.now() };
  }

  async getAsset(id: string): Promise<FetchedAsset> {
    this.calls.push({ method: 'getAsset', args: [id] });
    const record = this.assets[id];
    if (!record) throw notFound(`asset ${id}`);
    return { asset: record, from: new URL(`/api/v2/assets/${id}`, ORIGIN) };
  }

  async deleteAsset(id: string): Promise<void> {
    this.calls.push({ method: 'deleteAsset', args: [id] });
    if (this.deleteErrors.has(id)) throw this.deleteErrors.get(id);
    if (!this.assets[id]) throw notFound(`asset ${id}`);
    delete this.assets[id];
  }
}
