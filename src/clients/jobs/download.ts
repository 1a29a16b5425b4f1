// Saves every output of a job into one folder, a few at a time: each streams to NAME.part and is
// renamed only after its blake3 matches. Files already there are decided about first, before any
// transfer (same bytes: kept; other bytes: the policy of --clobber / --skip-existing). A hash still null is looked up again once the bytes are
// in (one re-read of the job for all outputs); a signed URL that has expired, or that the signed
// host refuses, is replaced by re-reading the job. Names are made safe and unique; job.json is
// written beside the outputs.
import { basename, join } from 'node:path';
import { ApiError } from '../../errors.js';
import { UniqueNames } from '../../files/safe-name.js';
import { saveToFile, type KeptPart, type OpenedBody, type SavedFile } from '../../files/save.js';
import type { HashSetting } from '../../util/blake3-setting.js';
import { checkExisting, type ExistingPolicy, type ExistingVerdict } from '../../files/existing.js';
import { makeFolders, removeStaleTemps, writeFileSafely } from '../../files/safe-file.js';
import type { FetchedJob, JobsClient } from './client.js';
import { JOB_FILE, jobFileFor } from './job-file.js';
import type { Output } from '../../protocol/jobs.js';

export { JOB_FILE } from './job-file.js';
const DEFAULT_CONCURRENCY = 4;
/** A URL this close to its expiry is refreshed before use. */
const EXPIRY_MARGIN_MS = 2_000;

export interface SavedOutput {
  name: string;
  path: string;
  bytes: number;
  hash: string | null;
  verified: boolean;
  asset_id: string;
  /** Nothing was written: the same bytes were there, or --skip-existing kept the file. */
  kept?: 'same' | 'skip-existing';
  /** The size the service declared, when it differs from the bytes the (whole) transfer delivered. */
  declared_size_bytes?: number;
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
  /** A file already at an output's name (default: refuse). */
  existing?: ExistingPolicy;
  warn?: (line: string) => void;
  /** Told of each download cut short whose bytes stay in a .part for the next run. */
  onKept?: (part: KeptPart) => void;
  /** WES_BLAKE3 and WES_PART_THREAD of the run; default the process's environment. */
  hashing?: HashSetting;
}

export interface DownloadResult {
  saved: SavedOutput[];
  /** The latest snapshot read (written to job.json). */
  job: FetchedJob;
  jobFile: string;
  /** Outputs that failed, in order; the first error is rethrown by downloadJob. */
  errors: Array<{ output: Output; error: unknown }>;
}

export function urlExpired(output: Pick<Output, 'url_expires_at'>, now: number): boolean {
  const at = Date.parse(output.url_expires_at ?? '');
  return Number.isFinite(at) && at - EXPIRY_MARGIN_MS <= now;
}

interface Snapshot {
  fetched: FetchedJob;
  /** Reads are numbered in the order they started; the job handed in is 0. */
  seq: number;
}

/** The newest snapshot of a job; outputs that need a newer one share a single read. */
class JobSnapshots {
  latest: Snapshot;
  private started = 0;
  private pending?: { seq: number; promise: Promise<Snapshot> };

  constructor(private readonly client: JobsClient, start: FetchedJob) {
    this.latest = { fetched: start, seq: 0 };
  }

  /** A snapshot whose read started after read `seq`: one already done or in flight, else a new one. */
  async newerThan(seq: number): Promise<Snapshot> {
    if (this.latest.seq > seq) return this.latest;
    if (this.pending && this.pending.seq > seq) return this.pending.promise;
    const mine = ++this.started;
    const promise = this.client.refresh(this.latest.fetched).then((fetched) => {
      const snapshot = { fetched, seq: mine };
      if (mine > this.latest.seq) this.latest = snapshot;
      return snapshot;
    });
    this.pending = { seq: mine, promise };
    try {
      return await promise;
    } finally {
      if (this.pending?.promise === promise) this.pending = undefined;
    }
  }
}

function outputIn(snapshot: Snapshot, id: string): Output | undefined {
  return snapshot.fetched.job.outputs.find((o) => o.id === id);
}

function isSignedRefusal(err: unknown): boolean {
  return err instanceof ApiError && err.origin === 'signed' && (err.status === 403 || err.status === 410);
}

/** Re-reads per output: one for a URL about to expire, one more for a URL the signed host refused. */
const MAX_REFRESHES = 2;

async function saveOne(client: JobsClient, snapshots: JobSnapshots, output: Output, name: string, options: DownloadOptions): Promise<SavedOutput> {
  const first = snapshots.latest;
  let snapshot = first;
  let known = output;
  let refreshes = 0;
  const reread = async (): Promise<void> => {
    refreshes++;
    snapshot = await snapshots.newerThan(snapshot.seq);
    known = outputIn(snapshot, output.id) ?? known;
  };
  const fetchKnown = async (offset: number): Promise<OpenedBody> => {
    const res = await client.content(client.http.link(known.url, snapshot.fetched.from), offset);
    return { status: res.status, body: res.body, headers: res.headers };
  };
  const open = async (offset: number): Promise<OpenedBody> => {
    if (urlExpired(known, client.http.clock.now()) && refreshes < MAX_REFRESHES) await reread();
    try {
      return await fetchKnown(offset);
    } catch (err) {
      if (!isSignedRefusal(err) || refreshes >= MAX_REFRESHES) throw err;
      await reread();
      return fetchKnown(offset);
    }
  };
  const file = await saveToFile({
    dir: options.dir,
    name,
    open,
    expectedHash: output.hash,
    expectedSize: typeof output.size_bytes === 'number' ? output.size_bytes : null,
    lateExpectedHash: async () => outputIn(await snapshots.newerThan(first.seq), output.id)?.hash,
    onProgress: options.onProgress && ((bytes) => options.onProgress!({ name, bytes, total: output.size_bytes ?? null })),
    existing: options.existing,
    warn: options.warn,
    onKept: options.onKept,
    hashing: options.hashing,
  });
  const saved = savedOutputOf(file, output.id);
  options.onSaved?.(saved);
  return saved;
}

/** A saved file as the download reports it (its JSON shape is the --json output of `jobs download`). */
export function savedOutputOf(file: SavedFile, assetId: string): SavedOutput {
  const saved: SavedOutput = { name: file.name, path: file.path, bytes: file.bytes, hash: file.hash, verified: file.verified, asset_id: assetId };
  if (file.kept) saved.kept = file.kept;
  if (file.declaredSize !== undefined) saved.declared_size_bytes = file.declaredSize;
  return saved;
}

function keptOutput(dir: string, name: string, output: Output, verdict: Extract<ExistingVerdict, { action: 'keep' }>): SavedOutput {
  return { name, path: join(dir, name), bytes: verdict.bytes, hash: verdict.hash, verified: verdict.same, asset_id: output.id, kept: verdict.same ? 'same' : 'skip-existing' };
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
  // File times are the wall clock's, so this is too (not the injected Clock).
  const startedAt = Date.now();
  await makeFolders(options.dir);
  const names = new UniqueNames();
  names.reserve(JOB_FILE);
  // Decided with the outputs, before any transfer: a conflict stops the command first.
  const jobFile = await jobFileFor(options.dir, start.job.id, options.existing ?? 'refuse');
  names.reserve(basename(jobFile));
  const snapshots = new JobSnapshots(client, start);
  const outputs = start.job.outputs;
  const planned = await Promise.all(
    outputs.map(async (output) => {
      const name = names.reserve(output.name, `output-${output.id}`);
      // Every conflict stops the command before any byte is fetched.
      const verdict = await checkExisting(join(options.dir, name), options.existing ?? 'refuse', { hash: output.hash, size: output.size_bytes }, options.hashing);
      return { output, name, verdict };
    }),
  );
  const saved: Array<SavedOutput | undefined> = [];
  const errors: DownloadResult['errors'] = [];
  await eachLimited(planned.map((p, i) => ({ ...p, i })), options.concurrency ?? DEFAULT_CONCURRENCY, async ({ output, name, verdict, i }) => {
    try {
      saved[i] = verdict.action === 'keep' ? keptOutput(options.dir, name, output, verdict) : await saveOne(client, snapshots, output, name, options);
    } catch (error) {
      errors.push({ output, error });
    }
  });
  await writeFileSafely(jobFile, JSON.stringify(snapshots.latest.fetched.job, null, 2) + '\n');
  // An earlier run killed while it wrote the record left its temp file: the record is whole now.
  await removeStaleTemps(options.dir, basename(jobFile), startedAt);
  return { saved: saved.filter((s): s is SavedOutput => s !== undefined), job: snapshots.latest.fetched, jobFile, errors };
}
