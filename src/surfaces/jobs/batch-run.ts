// Runs many jobs with at most N in flight: each item is submitted (with its own Idempotency-Key,
// patiently through a full queue), followed to a terminal status as `jobs watch` does (polling,
// woken early by the job's event stream), and its outputs saved when asked. Items are started in input order; every item ends as one BatchResult, also
// when the run is stopped (Ctrl-C, --timeout) or halted by a refused credential. No printing.
import { join } from 'node:path';
import { ApiError, ExitCode, WesError, toWesError } from '../../errors.js';
import { backoffDelay, sleep } from '../../http/retry.js';
import { safeFileName } from '../../files/safe-name.js';
import type { FetchedJob, JobsClient } from './client.js';
import { downloadOutputs } from './download.js';
import type { OpenClient } from './events.js';
import { followJob } from './follow.js';
import type { Output, SubmitRequest } from '../../protocol/jobs.js';

export interface BatchItem {
  index: number;
  key: string;
  /** Builds the request (may upload files first); called once, when the item starts. */
  request: () => Promise<SubmitRequest>;
}

export interface BatchOutput {
  id: string;
  name: string;
  type: string;
  content_type: string;
  size_bytes: number;
  hash: string | null;
  /** Where it was saved (with a download folder). */
  path?: string;
  verified?: boolean;
}

export interface BatchError {
  code: string;
  message: string;
  status: number | null;
  exit_code: number;
}

/** One line of the results file: the job's own status, or what kept the line from one. */
export interface BatchResult {
  index: number;
  job_id: string | null;
  status: string;
  outputs: BatchOutput[];
  error: BatchError | null;
  idempotency_key: string;
}

/** Statuses of a line that has no job status (yet). */
export const NOT_SUBMITTED = 'not_submitted';
export const REFUSED = 'refused';
export const FAILED_TO_RUN = 'error';
export const INTERRUPTED = 'interrupted';

export interface BatchOptions {
  concurrency: number;
  intervalMs: number;
  /** Ctrl-C or --timeout: stops submitting; running items end as they stand. */
  signal: AbortSignal;
  /** A client for each job's event stream, which wakes the poll early; absent: polling only. */
  openEvents?: OpenClient;
  /** Each job's outputs go to `<dir>/<index>-<job id>/`. */
  downloadDir?: string;
  onSubmitted?: (item: BatchItem, jobId: string) => void;
  onResult?: (result: BatchResult) => void;
  onThrottled?: (item: BatchItem, delayMs: number, error: ApiError) => void;
}

/** Rounds of "queue full" a submit waits through (each round is the HTTP layer's own retries). */
const MAX_THROTTLED_ROUNDS = 20;
const MAX_THROTTLE_WAIT_MS = 30_000;

export function errorOf(err: unknown): BatchError {
  const e = toWesError(err);
  return { code: e.code, message: e.message, status: e.status ?? null, exit_code: e.exitCode };
}

function outputOf(o: Output): BatchOutput {
  return { id: o.id, name: o.name, type: o.type, content_type: o.content_type, size_bytes: o.size_bytes, hash: o.hash };
}

/** Submits, waiting out a full queue (429/503) beyond the HTTP layer's retries: the batch's own jobs free it. */
async function submitPatiently(client: JobsClient, item: BatchItem, request: SubmitRequest, options: BatchOptions): Promise<FetchedJob> {
  for (let round = 0; ; round++) {
    try {
      return await client.submit(request, item.key);
    } catch (err) {
      if (!(err instanceof ApiError) || err.exitCode !== ExitCode.THROTTLED || round >= MAX_THROTTLED_ROUNDS) throw err;
      const delayMs = Math.min(MAX_THROTTLE_WAIT_MS, err.retryAfterSeconds !== undefined ? err.retryAfterSeconds * 1000 : backoffDelay(round));
      options.onThrottled?.(item, delayMs, err);
      await sleep(delayMs, options.signal);
    }
  }
}

class ItemRun {
  jobId: string | null = null;
  status = NOT_SUBMITTED;
  private outputs: BatchOutput[] = [];

  constructor(
    private readonly client: JobsClient,
    readonly item: BatchItem,
    private readonly options: BatchOptions,
  ) {}

  result(error: BatchError | null): BatchResult {
    return { index: this.item.index, job_id: this.jobId, status: this.status, outputs: this.outputs, error, idempotency_key: this.item.key };
  }

  async run(): Promise<BatchResult> {
    const submitted = await submitPatiently(this.client, this.item, await this.item.request(), this.options);
    this.jobId = submitted.job.id;
    this.status = submitted.job.status;
    this.options.onSubmitted?.(this.item, this.jobId);
    let last = submitted;
    const follow = { intervalMs: this.options.intervalMs, signal: this.options.signal, openEvents: this.options.openEvents };
    for await (const snapshot of followJob(this.client, submitted, follow)) {
      last = snapshot;
      this.status = snapshot.job.status;
    }
    const job = last.job;
    this.outputs = job.outputs.map(outputOf);
    if (job.status === 'succeeded' && this.options.downloadDir !== undefined) return this.download(last);
    return this.result(job.error ? jobError(job.error, job.status) : null);
  }

  private async download(job: FetchedJob): Promise<BatchResult> {
    const dir = join(this.options.downloadDir!, `${this.item.index}-${safeFileName(job.job.id, 'job')}`);
    const { saved, errors } = await downloadOutputs(this.client, job, { dir });
    if (this.options.signal.aborted) throw this.options.signal.reason;
    this.outputs = this.outputs.map((o) => {
      const file = saved.find((s) => s.asset_id === o.id);
      return file ? { ...o, hash: file.hash, path: file.path, verified: file.verified } : o;
    });
    return this.result(errors.length ? errorOf(errors[0]!.error) : null);
  }
}

function jobError(error: { code: string; message: string }, status: string): BatchError {
  return { code: error.code, message: error.message, status: null, exit_code: status === 'canceled' ? ExitCode.CANCELED : ExitCode.FAILED };
}

/** How a line that threw ends: still the job's status when there is a job, else why there is none. */
function failedResult(run: ItemRun, err: unknown, stopReason: unknown): BatchResult {
  if (stopReason !== undefined) {
    // Stopped mid-way: the job (if the submit got through) keeps running; --resume finds it by key.
    if (run.jobId === null) run.status = INTERRUPTED;
    return run.result(errorOf(stopReason));
  }
  const error = errorOf(err);
  if (run.jobId === null) run.status = err instanceof ApiError && (err.status ?? 500) < 500 && error.exit_code !== ExitCode.THROTTLED ? REFUSED : FAILED_TO_RUN;
  return run.result(error);
}

/** The exit code a line stands for: 0 only for a job that succeeded (and saved, when asked). */
export function resultExitCode(result: BatchResult): number {
  if (result.error) return result.error.exit_code;
  if (result.status === 'succeeded') return ExitCode.OK;
  if (result.status === 'canceled') return ExitCode.CANCELED;
  if (result.status === 'failed' || result.status === 'expired') return ExitCode.FAILED;
  return ExitCode.ERROR;
}

export interface BatchRunResult {
  results: BatchResult[];
  /** Why items were left unstarted: the stop signal's reason, or the error that halted the batch. */
  stoppedBy?: WesError;
}

export async function runBatch(client: JobsClient, items: BatchItem[], options: BatchOptions): Promise<BatchRunResult> {
  const results = new Map<number, BatchResult>();
  let next = 0;
  let halt: WesError | undefined;
  const finish = (result: BatchResult) => {
    results.set(result.index, result);
    options.onResult?.(result);
  };
  const worker = async () => {
    while (next < items.length && !options.signal.aborted && !halt) {
      const run = new ItemRun(client, items[next++]!, options);
      try {
        finish(await run.run());
      } catch (err) {
        const stopReason = options.signal.aborted ? options.signal.reason : undefined;
        const result = failedResult(run, err, stopReason);
        // A refused credential refuses every line alike: stop instead of sending the rest.
        if (stopReason === undefined && result.error?.exit_code === ExitCode.AUTH) halt ??= toWesError(err);
        finish(result);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, items.length) }, worker));
  const stoppedBy = options.signal.aborted ? toWesError(options.signal.reason) : halt;
  for (const item of items) {
    if (results.has(item.index)) continue;
    const error = stoppedBy ? { ...errorOf(stoppedBy), code: 'not_submitted', message: `not submitted: ${stoppedBy.message}` } : null;
    finish({ index: item.index, job_id: null, status: NOT_SUBMITTED, outputs: [], error, idempotency_key: item.key });
  }
  return { results: items.map((item) => results.get(item.index)!), stoppedBy };
}
