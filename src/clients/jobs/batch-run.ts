// Runs many jobs over one or more endpoints, each with its own window of lines in flight: each
// line is submitted (with its own Idempotency-Key, patiently through a full queue), followed to a
// terminal status as `jobs watch` does (polling, woken early by the job's event stream), and its
// outputs saved when asked. Lines are pulled from the input only when there is room, and started
// in input order; every line ends as one BatchResult (handed out, never kept), also when the run
// is stopped (Ctrl-C, --timeout), halted by a refused credential, or left with no endpoint. A
// line whose job may exist on an endpoint is never sent to another. No printing.
import { join } from 'node:path';
import { ApiError, ExitCode, NetworkError, WesError, toWesError } from '../../errors.js';
import { backoffDelay, isConnectFailure, sleep } from '../../http/retry.js';
import { safeFileName } from '../../files/safe-name.js';
import { SET_ASIDE_AFTER, type Endpoint } from './batch-endpoints.js';
import type { FetchedJob } from './client.js';
import { downloadOutputs } from './download.js';
import { followJob } from './follow-job.js';
import type { Output, SubmitRequest } from '../../protocol/jobs.js';
import { batchStatusOf, type EngineLines } from '../legacy/batch-engine.js';
import type { PromptState } from '../legacy/prompt-state.js';
import type { NodeFileRef } from '../legacy/tracker.js';

export interface BatchItem {
  index: number;
  /** The line's place among the batch's jobs (0-based), for the results in input order. */
  ordinal: number;
  key: string;
  /** The endpoint (its url) where this line's job may already exist: followed there, never sent elsewhere. */
  pinnedTo?: string;
  /** Builds the request for an endpoint (may upload files to it first); called when the line starts there. */
  request: (endpoint: Endpoint) => Promise<SubmitRequest>;
}

export interface BatchOutput {
  id: string;
  name: string;
  type: string;
  /** null for an engine's output (its history names files only). */
  content_type: string | null;
  size_bytes: number | null;
  hash: string | null;
  /** The node that made it (engine outputs). */
  node?: string;
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
  /** Where the line's job is (or may be): the endpoint's base URL; absent when no job can exist. */
  endpoint?: string;
}

/** Statuses of a line that has no job status (yet). */
export const NOT_SUBMITTED = 'not_submitted';
export const REFUSED = 'refused';
export const FAILED_TO_RUN = 'error';
export const INTERRUPTED = 'interrupted';

export interface BatchOptions {
  intervalMs: number;
  /** Ctrl-C or --timeout: stops submitting; running items end as they stand. */
  signal: AbortSignal;
  /** Attempts of a submit beyond the first, for answers that may be lost (the HTTP layer's --retries). */
  retries: number;
  /** Each job's outputs go to `<dir>/<index>-<job id>/`. */
  downloadDir?: string;
  /** Told (synchronously) before a line is first sent to an endpoint: the journal records where it went. */
  onSend?: (item: BatchItem, endpoint: Endpoint) => void;
  onSubmitted?: (item: BatchItem, endpoint: Endpoint, jobId: string) => void;
  onResult?: (result: BatchResult, item: BatchItem) => void;
  onThrottled?: (item: BatchItem, endpoint: Endpoint, delayMs: number, error: ApiError) => void;
  onSetAside?: (endpoint: Endpoint, reason: string) => void;
}

/** Rounds of "queue full" a submit waits through: the batch's own jobs free the queue. */
const MAX_THROTTLED_ROUNDS = 40;
const MAX_THROTTLE_WAIT_MS = 30_000;
/** A batch follows many jobs: a read right after each status event, and only status events wake one. */
const FOLLOW_MIN_GAP_MS = 5;
const wakeOnStatus = (event: string) => event === 'status';
/** Quick jobs are read once after this, before any event stream is opened for them. */
const FIRST_READ_MS = 25;

export function errorOf(err: unknown): BatchError {
  const e = toWesError(err);
  return { code: e.code, message: e.message, status: e.status ?? null, exit_code: e.exitCode };
}

function outputOf(o: Output): BatchOutput {
  return { id: o.id, name: o.name, type: o.type, content_type: o.content_type, size_bytes: o.size_bytes, hash: o.hash };
}

/** Thrown by a line whose submit certainly made no job where it went: it may go to another endpoint. */
class Moved extends Error {}

/** Whether an endpoint refused for load (the job was not made; another endpoint may take it). */
function isLoadRefusal(err: unknown): err is ApiError {
  return err instanceof ApiError && (err.status === 429 || err.status === 503);
}

/** A failure that proves the request never reached the server (the connection was refused). */
function neverReached(err: unknown): boolean {
  return isConnectFailure(err) || isConnectFailure((err as { cause?: unknown })?.cause);
}

/** An answer that says no job was made: refused for load, or a 4xx about the request itself. */
function madeNoJob(err: unknown): boolean {
  if (neverReached(err) || isLoadRefusal(err)) return true;
  return err instanceof ApiError && (err.status ?? 500) < 500 && err.code !== 'idempotency_key_reuse';
}

class ItemRun {
  jobId: string | null = null;
  status = NOT_SUBMITTED;
  /** Whether the line's job exists, or may, on the endpoint. */
  mayExist = false;
  private outputs: BatchOutput[] = [];

  constructor(
    readonly item: BatchItem,
    readonly endpoint: Endpoint,
    private readonly options: BatchOptions,
    /** Whether another endpoint could take this line now. */
    private readonly elsewhere: (from: Endpoint) => boolean,
  ) {}

  result(error: BatchError | null): BatchResult {
    const result: BatchResult = { index: this.item.index, job_id: this.jobId, status: this.status, outputs: this.outputs, error, idempotency_key: this.item.key };
    if (this.mayExist) result.endpoint = this.endpoint.url;
    return result;
  }

  async run(): Promise<BatchResult> {
    if (this.endpoint.spec.engine) return this.runOnEngine(this.endpoint.spec.engine);
    const request = await this.item.request(this.endpoint);
    const submitted = await this.submit(() => this.endpoint.spec.client.submit(request, this.item.key, { retries: 0 }));
    this.jobId = submitted.job.id;
    this.status = submitted.job.status;
    this.options.onSubmitted?.(this.item, this.endpoint, this.jobId);
    let last = submitted;
    const follow = {
      intervalMs: this.options.intervalMs,
      signal: this.options.signal,
      openEvents: this.endpoint.spec.openEvents,
      minGapMs: FOLLOW_MIN_GAP_MS,
      wakeOn: wakeOnStatus,
      firstReadMs: FIRST_READ_MS,
    };
    for await (const snapshot of followJob(this.endpoint.spec.client, submitted, follow)) {
      last = snapshot;
      this.status = snapshot.job.status;
    }
    this.endpoint.answered();
    const job = last.job;
    this.outputs = job.outputs.map(outputOf);
    if (job.status === 'succeeded' && this.options.downloadDir !== undefined) return this.download(last);
    return this.result(job.error ? jobError(job.error, job.status) : null);
  }

  /**
   * A line on a self-hosted engine: submitted as a v1 prompt (found by its key first when it may
   * be there already: an earlier run sent it here, or an answer was lost), followed to its end by
   * the engine's poller, its outputs read from the engine's history.
   */
  private async runOnEngine(engine: EngineLines): Promise<BatchResult> {
    const { item, endpoint } = this;
    const request = await item.request(endpoint);
    const find = async (ambiguous: boolean) => ((ambiguous || item.pinnedTo === endpoint.url) && (await engine.find(item.key))) || undefined;
    this.jobId = await this.submit(async (ambiguous) => (await find(ambiguous)) ?? engine.submit(request.workflow, request.extra_data, item.key));
    this.status = 'queued';
    this.options.onSubmitted?.(item, endpoint, this.jobId);
    const state = await engine.follow(this.jobId);
    endpoint.answered();
    this.status = batchStatusOf(state.status);
    this.outputs = state.outputs.map(engineOutputOf);
    if (this.status === 'succeeded' && this.options.downloadDir !== undefined && engine.saveOutputs) {
      const dir = join(this.options.downloadDir, `${item.index}-${safeFileName(this.jobId, 'prompt')}`);
      const saved = await engine.saveOutputs(engine.client, state.outputs, dir);
      this.outputs = withSavedFiles(this.outputs, (_, i) => saved.find((s) => s.ref === state.outputs[i]));
    }
    return this.result(engineError(state));
  }

  /**
   * Sends the line (with its key), retrying where the answer may have been lost (the key makes that
   * safe: the job API finds the job by it, an engine's prompt is looked up by it) and waiting out a
   * full queue; a line that certainly made no job here moves when another endpoint can take it.
   */
  private async submit<T>(send: (ambiguous: boolean) => Promise<T>): Promise<T> {
    const { endpoint, options, item } = this;
    options.onSend?.(item, endpoint);
    let ambiguous = false;
    let attempt = 0;
    for (let throttled = 0; ; ) {
      try {
        this.mayExist = true;
        const job = await send(ambiguous);
        endpoint.accepted();
        return job;
      } catch (err) {
        if (options.signal.aborted) throw err;
        // Once an answer may have been lost, the job may exist here whatever later attempts say;
        // so may a line an earlier run sent here (its result keeps naming this endpoint).
        if (!madeNoJob(err)) ambiguous = true;
        this.mayExist = ambiguous || item.pinnedTo === endpoint.url;
        if (isLoadRefusal(err)) {
          const delayMs = Math.min(MAX_THROTTLE_WAIT_MS, err.retryAfterSeconds !== undefined ? err.retryAfterSeconds * 1000 : backoffDelay(throttled));
          endpoint.refusedForLoad(delayMs);
          if (!ambiguous && this.elsewhere(endpoint)) throw new Moved();
          if (throttled++ >= MAX_THROTTLED_ROUNDS) throw err;
          options.onThrottled?.(item, endpoint, delayMs, err);
          await sleep(delayMs, options.signal);
          continue;
        }
        if (err instanceof ApiError && (err.status ?? 500) < 500) throw err;
        if (neverReached(err)) {
          const reason = toWesError(err).message;
          if (endpoint.failedHard(reason)) options.onSetAside?.(endpoint, reason);
          if (!ambiguous && (endpoint.setAsideBecause !== null || this.elsewhere(endpoint))) throw new Moved();
        }
        if (attempt++ >= options.retries || endpoint.setAsideBecause !== null) throw err;
        await sleep(err instanceof ApiError && err.retryAfterSeconds !== undefined ? err.retryAfterSeconds * 1000 : backoffDelay(attempt - 1), options.signal);
      }
    }
  }

  private async download(job: FetchedJob): Promise<BatchResult> {
    const dir = join(this.options.downloadDir!, `${this.item.index}-${safeFileName(job.job.id, 'job')}`);
    const { saved, errors } = await downloadOutputs(this.endpoint.spec.client, job, { dir });
    if (this.options.signal.aborted) throw this.options.signal.reason;
    this.outputs = withSavedFiles(this.outputs, (o) => saved.find((s) => s.asset_id === o.id));
    return this.result(errors.length ? errorOf(errors[0]!.error) : null);
  }
}

/** The outputs with where each was saved (its hash, path and check), for those `fileOf` finds a saved file of. */
function withSavedFiles(outputs: BatchOutput[], fileOf: (output: BatchOutput, i: number) => { hash: string | null; path: string; verified: boolean } | undefined): BatchOutput[] {
  return outputs.map((o, i) => {
    const file = fileOf(o, i);
    return file ? { ...o, hash: file.hash, path: file.path, verified: file.verified } : o;
  });
}

/** An engine output file: named by where /view finds it (type/subfolder/filename); no size or hash until saved. */
function engineOutputOf(ref: NodeFileRef): BatchOutput {
  const id = [ref.type, ref.subfolder, ref.filename].filter((part) => part !== '').join('/');
  return { id, name: ref.filename, type: ref.kind, content_type: null, size_bytes: null, hash: null, node: ref.node };
}

/** How an engine's prompt ended, as a line's error (null for success). */
function engineError(state: PromptState): BatchError | null {
  if (state.status === 'success') return null;
  const outcome = state.outcome;
  if (state.status === 'cancelled') return { code: 'canceled', message: 'the prompt was interrupted or deleted from the engine\'s queue', status: null, exit_code: ExitCode.CANCELED };
  if (outcome?.kind === 'error') return { code: outcome.exceptionType, message: outcome.exceptionMessage || `node ${outcome.nodeId ?? '?'} failed`, status: null, exit_code: ExitCode.FAILED };
  return { code: 'execution_error', message: 'the engine ended the prompt with an error', status: null, exit_code: ExitCode.FAILED };
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
  /** Why lines were left unstarted: the stop signal's reason, the error that halted the batch, or the last endpoint's failure. */
  stoppedBy?: WesError;
}

/** A line that cannot be followed where its job is: that endpoint is not in this run, or was set aside. */
function unreachable(item: BatchItem, endpoint: Endpoint | undefined): BatchResult {
  const why = endpoint ? `was set aside (${endpoint.setAsideBecause})` : 'is not one of this run\'s endpoints';
  return {
    index: item.index,
    job_id: null,
    status: FAILED_TO_RUN,
    outputs: [],
    error: { code: 'endpoint_unavailable', message: `this line was sent to ${item.pinnedTo}, which ${why}; resume with that endpoint to follow its job`, status: null, exit_code: ExitCode.ERROR },
    idempotency_key: item.key,
    endpoint: item.pinnedTo,
  };
}

function notSubmitted(item: BatchItem, stoppedBy: WesError | undefined): BatchResult {
  const error = stoppedBy ? { ...errorOf(stoppedBy), code: 'not_submitted', message: `not submitted: ${stoppedBy.message}` } : null;
  return { index: item.index, job_id: null, status: NOT_SUBMITTED, outputs: [], error, idempotency_key: item.key };
}

/** Lines pulled from the input but waiting: moved from an endpoint, or pinned to one that is full. */
const MAX_HELD = 4096;

/**
 * Runs the lines over the endpoints: pulls a line from the input only when an endpoint has room
 * (so memory holds the lines in flight, not the batch), and gives every line exactly one result.
 */
export async function runBatch(endpoints: Endpoint[], items: AsyncIterable<BatchItem>, options: BatchOptions): Promise<BatchRunResult> {
  const byUrl = new Map(endpoints.map((e) => [e.url, e]));
  const moved: BatchItem[] = [];
  const pinned = new Map<Endpoint, BatchItem[]>(endpoints.map((e) => [e, []]));
  let held = 0;
  const source = items[Symbol.asyncIterator]();
  let exhausted = false;
  let halt: WesError | undefined;
  let lastSetAside: WesError | undefined;
  const running = new Set<Promise<void>>();
  let wake: () => void = () => {};

  const told = options.onSetAside;
  options = {
    ...options,
    onSetAside: (endpoint, reason) => {
      lastSetAside = new NetworkError(`${endpoint.name} was set aside after ${SET_ASIDE_AFTER} failures in a row: ${reason}`);
      told?.(endpoint, reason);
    },
  };
  const alive = () => endpoints.filter((e) => e.setAsideBecause === null);
  const stopped = () => options.signal.aborted || halt !== undefined || alive().length === 0;
  const elsewhere = (from: Endpoint) => endpoints.some((e) => e !== from && e.setAsideBecause === null);
  const finish = (item: BatchItem, result: BatchResult) => options.onResult?.(result, item);

  const launch = (item: BatchItem, endpoint: Endpoint) => {
    endpoint.started();
    let task: Promise<void> | undefined;
    const run = new ItemRun(item, endpoint, options, elsewhere);
    task = (async () => {
      await Promise.resolve(); // `task` is in `running` before the line can end
      try {
        const result = await run.run();
        endpoint.ended(result.status === 'succeeded' && result.error === null ? 'succeeded' : 'failed');
        finish(item, result);
      } catch (err) {
        if (err instanceof Moved) {
          endpoint.inFlight--;
          moved.push(item);
          return;
        }
        if (!options.signal.aborted && err instanceof NetworkError && endpoint.failedHard(err.message)) options.onSetAside?.(endpoint, err.message);
        const stopReason = options.signal.aborted ? options.signal.reason : undefined;
        const result = failedResult(run, err, stopReason);
        // A refused credential refuses every line alike: stop instead of sending the rest.
        if (stopReason === undefined && result.error?.exit_code === ExitCode.AUTH) halt ??= toWesError(err);
        endpoint.ended('failed');
        finish(item, result);
      } finally {
        running.delete(task!);
        wake();
      }
    })();
    running.add(task);
  };

  /** The endpoint with the most room for an unpinned line. */
  const roomiest = () => {
    let best: Endpoint | undefined;
    for (const e of endpoints) if (e.room > 0 && (!best || e.room / e.spec.concurrency > best.room / best.spec.concurrency)) best = e;
    return best;
  };

  /** Starts what can start now; false when it must wait for a line to end. */
  const dispatch = async (): Promise<void> => {
    for (const [endpoint, queue] of pinned) {
      while (endpoint.room > 0 && queue.length) {
        held--;
        launch(queue.shift()!, endpoint);
      }
    }
    for (;;) {
      if (stopped()) return;
      const target = roomiest();
      if (!target) return;
      let item = moved.shift();
      if (!item) {
        if (exhausted || held >= MAX_HELD) return;
        const next = await source.next();
        if (next.done) {
          exhausted = true;
          return;
        }
        item = next.value;
      }
      if (item.pinnedTo === undefined) {
        launch(item, target);
        continue;
      }
      const home = byUrl.get(item.pinnedTo);
      if (!home || home.setAsideBecause !== null) finish(item, unreachable(item, home));
      else if (home.room > 0) launch(item, home);
      else {
        held++;
        pinned.get(home)!.push(item);
      }
    }
  };

  for (;;) {
    const woken = new Promise<void>((resolve) => (wake = resolve));
    await dispatch();
    const waiting = moved.length > 0 || held > 0;
    if (running.size === 0 && (stopped() || (exhausted && !waiting))) break;
    if (running.size === 0 && waiting && alive().length > 0) continue; // room freed by a set-aside endpoint's lines moving
    await woken;
  }
  const stoppedBy = options.signal.aborted ? toWesError(options.signal.reason) : (halt ?? (alive().length === 0 ? lastSetAside : undefined));
  for (const [endpoint, queue] of pinned) for (const item of queue) finish(item, endpoint.setAsideBecause !== null ? unreachable(item, endpoint) : notSubmitted(item, stoppedBy));
  for (const item of moved) finish(item, notSubmitted(item, stoppedBy));
  if (!exhausted) for (let next = await source.next(); !next.done; next = await source.next()) finish(next.value, notSubmitted(next.value, stoppedBy));
  return { stoppedBy };
}
