// Saves every output of a job into one folder, a few at a time: each streams to NAME.part and is
// renamed only after its blake3 matches. A hash still null is looked up again once the bytes are
// in (one re-read of the job for all outputs); a signed URL that has expired, or that the signed
// host refuses, is replaced by re-reading the job. Names are made safe and unique; job.json is
// written beside the outputs.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../../errors.js';
import { UniqueNames } from '../../files/safe-name.js';
import { saveToFile, type OpenedBody } from '../../files/save.js';
import type { FetchedJob, JobsClient } from './client.js';
import type { Output } from './wire.js';

export const JOB_FILE = 'job.json';
const DEFAULT_CONCURRENCY = 4;
/** A URL this close to its expiry is refreshed before use. */
const EXPIRY_MARGIN_MS = 2_000;

export interface SavedOutput {
  name: string;
  path: string;
  bytes: number;
  hash: string;
  verified: boolean;
  asset_id: string;
}

export interface DownloadProgress {
  name: string;
  bytes: number;
  total: number | null;
}

export interface DownloadOptions {
  dir: string;
  concurrency?: number;
  onProgress?: (progress: DownloadProgress) => void;
  onSaved?: (saved: SavedOutput) => void;
}

export interface DownloadResult {
  saved: SavedOutput[];
  /** The latest snapshot read (written to job.json). */
  job: FetchedJob;
  jobFile: string;
  /** Outputs that failed, in order; the first error is rethrown by downloadJob. */
  errors: Array<{ output: Output; error: unknown }>;
}

export function urlExpired(output: Pick<Output, 'url_expires_at'>, now = Date.now()): boolean {
  const at = Date.parse(output.url_expires_at ?? '');
  return Number.isFinite(at) && at - EXPIRY_MARGIN_MS <= now;
}

/** The newest snapshot of a job, re-read at most once per reason however many outputs ask. */
class JobSnapshots {
  private latest: FetchedJob;
  private pending?: Promise<FetchedJob>;
  private readAt = 0;

  constructor(private readonly client: JobsClient, start: FetchedJob) {
    this.latest = start;
  }

  get current(): FetchedJob {
    return this.latest;
  }

  /** Re-reads unless a read started after `since` already did (callers share one read). */
  async reread(since: number): Promise<FetchedJob> {
    if (this.readAt > since) return this.pending ?? this.latest;
    this.readAt = Date.now() + 1e-3;
    this.pending = this.client.refresh(this.latest).then((next) => (this.latest = next));
    try {
      return await this.pending;
    } finally {
      this.pending = undefined;
    }
  }

  output(id: string): Output | undefined {
    return this.latest.job.outputs.find((o) => o.id === id);
  }
}

function isSignedRefusal(err: unknown): boolean {
  return err instanceof ApiError && err.surface === 'signed' && (err.status === 403 || err.status === 410);
}

async function saveOne(client: JobsClient, snapshots: JobSnapshots, output: Output, name: string, options: DownloadOptions): Promise<SavedOutput> {
  const started = Date.now();
  let refreshed = false;
  const freshOutput = async (): Promise<Output> => {
    refreshed = true;
    await snapshots.reread(started);
    return snapshots.output(output.id) ?? output;
  };
  let known = output;
  const open = async (offset: number): Promise<OpenedBody> => {
    if (urlExpired(known) && !refreshed) known = await freshOutput();
    try {
      const res = await client.signed(client.http.link(known.url, snapshots.current.from), offset);
      return { status: res.status, body: res.body };
    } catch (err) {
      if (!isSignedRefusal(err) || refreshed) throw err;
      known = await freshOutput();
      const res = await client.signed(client.http.link(known.url, snapshots.current.from), offset);
      return { status: res.status, body: res.body };
    }
  };
  const file = await saveToFile({
    dir: options.dir,
    name,
    open,
    expectedHash: output.hash,
    expectedSize: typeof output.size_bytes === 'number' ? output.size_bytes : null,
    lateExpectedHash: async () => (await snapshots.reread(started), snapshots.output(output.id)?.hash),
    onProgress: options.onProgress && ((bytes) => options.onProgress!({ name, bytes, total: output.size_bytes ?? null })),
  });
  const saved = { name: file.name, path: file.path, bytes: file.bytes, hash: file.hash, verified: file.verified, asset_id: output.id };
  options.onSaved?.(saved);
  return saved;
}

/** Runs `work` over `items` with at most `limit` at once; every item runs, failures are collected. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export async function downloadOutputs(client: JobsClient, start: FetchedJob, options: DownloadOptions): Promise<DownloadResult> {
  await mkdir(options.dir, { recursive: true });
  const names = new UniqueNames();
  names.reserve(JOB_FILE);
  const snapshots = new JobSnapshots(client, start);
  const outputs = start.job.outputs;
  const planned = outputs.map((output) => ({ output, name: names.reserve(output.name, `output-${output.id}`) }));
  const saved: Array<SavedOutput | undefined> = [];
  const errors: DownloadResult['errors'] = [];
  await eachLimited(planned.map((p, i) => ({ ...p, i })), options.concurrency ?? DEFAULT_CONCURRENCY, async ({ output, name, i }) => {
    try {
      saved[i] = await saveOne(client, snapshots, output, name, options);
    } catch (error) {
      errors.push({ output, error });
    }
  });
  const jobFile = join(options.dir, JOB_FILE);
  await writeFile(jobFile, JSON.stringify(snapshots.current.job, null, 2) + '\n');
  return { saved: saved.filter((s): s is SavedOutput => s !== undefined), job: snapshots.current, jobFile, errors };
}
