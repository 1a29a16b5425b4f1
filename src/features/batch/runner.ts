// Runs many jobs over one or more endpoints, each with its own window of lines in flight: each
// line is submitted (under a single-use Idempotency-Key of its own, patiently through a full
// queue), followed to a terminal status as `jobs watch` does (polling, woken early by the job's
// event stream), and its outputs saved when asked. A submit with no usable answer is never sent
// again under its key: its job is looked for by the key its label names, and only when the server
// proves it made none (or the user asks) is the line sent under a new key. A line an earlier run
// made a job for is followed by reading that job, never submitted again. Lines are pulled from
// the input only when there is room, and started in input order; every line ends as one
// BatchResult (handed out, never kept), also when the run is stopped (Ctrl-C, --timeout), halted
// by a refused credential, or left with no endpoint. A line whose job may exist on an endpoint is
// never sent to another. No printing.
import type { HashSetting } from '../../util/blake3-setting.js';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ApiError, ExitCode, InDoubtError, NetworkError, WesError, toWesError } from '../../errors.js';
import { backoffDelay, isConnectFailure, retryAfterWait, sleep } from '../../http/retry.js';
import { safeFileName } from '../../files/safe-name.js';
import { SET_ASIDE_AFTER, type Endpoint } from './endpoint.js';
import type { FetchedJob } from '../../clients/jobs/client.js';
import { downloadOutputs } from '../../clients/jobs/download.js';
import { followJob } from '../../clients/jobs/follow-job.js';
import { awaitJobByKey, findJobByKey } from '../../clients/jobs/keyed-submit.js';
import type { JobLabels } from '../../protocol/jobs.js';
import { isKeyReuse, sendLabelled } from '../../clients/jobs/keyed-submit.js';
import { judgeSearch, mayHaveTakenEffect, sendKeyed, type NoAnswer } from '../keyed/verdict.js';
import { lineInDoubt } from '../jobs/submit-hints.js';
import type { Output, SubmitRequest } from '../../protocol/jobs.js';
import { batchStatusOf, type EngineLines } from './engine-lines.js';
import type { PromptState } from '../../clients/legacy/prompt-state.js';
import type { NodeFileRef } from '../../clients/legacy/tracker.js';

/** What an earlier run left of a line: a job to follow, or a key whose job to look for (on `pinnedTo`). */
export type EarlierAttempt = { kind: 'follow'; jobId: string; key: string } | { kind: 'find'; key: string; sentAt?: number };

export interface BatchItem {
  index: number;
  /** The line's place among the batch's jobs (0-based), for the results in input order. */
  ordinal: number;
  /** The single-use key a new submit of this line goes under (fresh for every run). */
  key: string;
  /** Which line of which batch this is (its file, place, text and --set flags), kept in its records. */
  lineId: string;
  /** What an earlier run left of it, on the endpoint it is pinned to. */
  earlier?: EarlierAttempt;
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
  /** The key of the line's job (or of its last submit). */
  idempotency_key: string;
  /** Where the line's job is (or may be): the endpoint's base URL; absent when no job can exist. */
  endpoint?: string;
  /** Which line of which batch this is (its file, place, text and --set flags). */
  line_id?: string;
  /** Its job was found by its key after a submit's answer was lost (now or in an earlier run). */
  found_by_key?: boolean;
  /** It was sent again under a new key: after the server proved an earlier key made no job, or because --resubmit-in-doubt asked. */
  resubmitted?: { previous_key: string; because: 'no_job_made' | 'resubmit_in_doubt' };
}

/** Statuses of a line that has no job status (yet). */
export const NOT_SUBMITTED = 'not_submitted';
export const REFUSED = 'refused';
export const FAILED_TO_RUN = 'error';
export const INTERRUPTED = 'interrupted';
/** A submit with no usable answer whose job could not be found: it may exist. */
export const IN_DOUBT = 'in_doubt';

export interface BatchOptions {
  intervalMs: number;
  /** Ctrl-C or --timeout: stops submitting; running items end as they stand. */
  signal: AbortSignal;
  /** Attempts of a submit beyond the first, for answers that may be lost (the HTTP layer's --retries). */
  retries: number;
  /** Each job's outputs go to `<dir>/<index>-<job id>/`. */
  downloadDir?: string;
  /** How those downloads hash (the run's WES_BLAKE3, WES_PART_THREAD). */
  hashing?: HashSetting;
  /** Send a line under a new key when its earlier key's job cannot be found (the user's call: it may run twice). */
  resubmitInDoubt?: boolean;
  /** The user's own labels, beside each submit's key label in `metadata`. */
  labels?: JobLabels;
  /** Told (synchronously) before a key is sent to an endpoint: the journal records where and when it went. */
  onSend?: (item: BatchItem, endpoint: Endpoint, key: string, sentAt: number) => void;
  onSubmitted?: (item: BatchItem, endpoint: Endpoint, jobId: string, key: string) => void;
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
function isLoadRefusal(err: unknown, onEngine: boolean): err is ApiError {
  // A job API 503 may come after the job was made (single-use keys leave it in doubt); an engine's does not.
  return err instanceof ApiError && (err.status === 429 || (onEngine && err.status === 503));
}

/** A failure that proves the request never reached the server (the connection was refused). */
function neverReached(err: unknown): boolean {
  return isConnectFailure(err) || isConnectFailure((err as { cause?: unknown })?.cause);
}

/** An answer that says no job was made: refused for load, or unsent by the keyed verdict (a reused key may have made one). */
function madeNoJob(err: unknown, onEngine: boolean): boolean {
  return isLoadRefusal(err, onEngine) || (!mayHaveTakenEffect(err) && !isKeyReuse(err));
}

class ItemRun {
  jobId: string | null = null;
  status = NOT_SUBMITTED;
  /** Whether the line's job exists, or may, on the endpoint. */
  mayExist = false;
  /** The key of the line's job, or of its last submit. */
  key: string;
  private foundByKey = false;
  private resubmitted?: BatchResult['resubmitted'];
  private outputs: BatchOutput[] = [];

  constructor(
    readonly item: BatchItem,
    readonly endpoint: Endpoint,
    private readonly options: BatchOptions,
    /** Whether another endpoint could take this line now. */
    private readonly elsewhere: (from: Endpoint) => boolean,
  ) {
    this.key = item.earlier?.key ?? item.key;
    this.mayExist = item.earlier !== undefined;
  }

  result(error: BatchError | null): BatchResult {
    const result: BatchResult = { index: this.item.index, job_id: this.jobId, status: this.status, outputs: this.outputs, error, idempotency_key: this.key, line_id: this.item.lineId };
    if (this.mayExist) result.endpoint = this.endpoint.url;
    if (this.foundByKey) result.found_by_key = true;
    if (this.resubmitted) result.resubmitted = this.resubmitted;
    return result;
  }

  async run(): Promise<BatchResult> {
    if (this.endpoint.spec.engine) return this.runOnEngine(this.endpoint.spec.engine);
    const client = this.endpoint.spec.client;
    const earlier = this.item.earlier;
    let start: FetchedJob;
    if (earlier?.kind === 'follow') start = await client.get(earlier.jobId);
    else {
      const found = earlier?.kind === 'find' ? await this.resolveEarlier(earlier) : undefined;
      start = found ?? (await this.submitNew());
    }
    this.jobId = start.job.id;
    this.status = start.job.status;
    if (earlier?.kind !== 'follow') this.options.onSubmitted?.(this.item, this.endpoint, this.jobId, this.key);
    let last = start;
    const follow = {
      intervalMs: this.options.intervalMs,
      signal: this.options.signal,
      openEvents: this.endpoint.spec.openEvents,
      minGapMs: FOLLOW_MIN_GAP_MS,
      wakeOn: wakeOnStatus,
      firstReadMs: FIRST_READ_MS,
    };
    for await (const snapshot of followJob(client, start, follow)) {
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
   * A key an earlier run sent with no job named: its job, when the server's list shows it; else
   * undefined (a new submit follows) when the server proved it made none or --resubmit-in-doubt
   * asks; else the line stays in doubt.
   */
  private async resolveEarlier(earlier: { key: string; sentAt?: number }): Promise<FetchedJob | undefined> {
    const search = await findJobByKey(this.endpoint.spec.client, earlier.key, { sentAt: earlier.sentAt });
    return this.resolveVerdict(judgeSearch(undefined, search), earlier.key);
  }

  /**
   * A send (or an earlier run's) that got no usable answer, as the verdict has it: its job when
   * found; else undefined (a new submit under a new key follows) when the server proved it made
   * none or --resubmit-in-doubt asks; else the line stays in doubt.
   */
  private resolveVerdict(verdict: NoAnswer<FetchedJob>, key: string): FetchedJob | undefined {
    if (verdict.kind === 'found') {
      this.foundByKey = true;
      return verdict.value;
    }
    if (verdict.kind === 'proven-absent') this.resubmitted = { previous_key: key, because: 'no_job_made' };
    else if (verdict.search === undefined) throw verdict.error;
    else if (this.options.resubmitInDoubt) this.resubmitted = { previous_key: key, because: 'resubmit_in_doubt' };
    else throw lineInDoubt(verdict.error, key, verdict.search);
    return undefined;
  }

  /** Submits the line under a new single-use key; a lost answer is resolved by key (see ItemRun's header). */
  private async submitNew(): Promise<FetchedJob> {
    const request = await this.item.request(this.endpoint);
    const client = this.endpoint.spec.client;
    return this.submit(false, async () => {
      const key = this.key === this.item.earlier?.key ? (this.key = this.item.key) : this.key;
      const sentAt = this.sentAt(key);
      const verdict = await sendKeyed(() => sendLabelled(client, request, key, this.options.labels, { retries: 0 }), {
        signal: this.options.signal,
        searchAlso: isKeyReuse,
        find: () => awaitJobByKey(client, key, { sentAt }, this.options.signal),
      });
      if (verdict.kind === 'answered') return verdict.value;
      if (verdict.kind === 'unsent') throw verdict.error;
      const found = this.resolveVerdict(verdict, key);
      if (found) return found;
      this.key = randomUUID();
      throw verdict.error;
    });
  }

  /** Tells the journal a key goes out now (once per key: resends of a key a 429 released keep its first time). */
  private sentAt(key: string): number {
    if (this.lastSent?.key === key) return this.lastSent.at;
    const at = Date.now();
    this.lastSent = { key, at };
    this.options.onSend?.(this.item, this.endpoint, key, at);
    return at;
  }

  private lastSent?: { key: string; at: number };

  /**
   * A line on a self-hosted engine: submitted as a v1 prompt (found by its key first when it may
   * be there already: an earlier run sent it here, or an answer was lost), followed to its end by
   * the engine's poller, its outputs read from the engine's history.
   */
  private async runOnEngine(engine: EngineLines): Promise<BatchResult> {
    const { item, endpoint } = this;
    const request = await item.request(endpoint);
    const earlier = item.earlier;
    if (earlier?.kind === 'follow') this.jobId = earlier.jobId;
    else {
      const find = async (ambiguous: boolean) => ((ambiguous || earlier !== undefined) && (await engine.find(this.key))) || undefined;
      this.jobId = await this.submit(true, async (ambiguous) => (await find(ambiguous)) ?? engine.submit(request.workflow, request.extra_data, this.sentKey()));
      this.options.onSubmitted?.(item, endpoint, this.jobId, this.key);
    }
    this.status = 'queued';
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

  /** The key an engine prompt goes under: an engine takes no Idempotency-Key, so one key serves every attempt of the line. */
  private sentKey(): string {
    this.sentAt(this.key);
    return this.key;
  }

  /**
   * Sends the line, waiting out a full queue (a 429 refused it and released its key, so the same
   * key goes again) and moving a line that certainly made no job here when another endpoint can
   * take it. A job API submit whose answer was lost is resolved by `send` itself (its job found,
   * or a new key to send, or in doubt). `ambiguous`: an answer may have been lost on an engine,
   * whose prompts are looked up by key.
   */
  private async submit<T>(onEngine: boolean, send: (ambiguous: boolean) => Promise<T>): Promise<T> {
    const { endpoint, options, item } = this;
    let ambiguous = false;
    let attempt = 0;
    for (let throttled = 0; ; ) {
      try {
        this.mayExist = true;
        const job = await send(ambiguous);
        endpoint.accepted();
        return job;
      } catch (err) {
        if (options.signal.aborted || err instanceof InDoubtError) throw err;
        // Once an answer may have been lost, the job may exist here whatever later attempts say;
        // so may a line an earlier run sent here (its result keeps naming this endpoint).
        if (!madeNoJob(err, onEngine)) ambiguous = true;
        this.mayExist = ambiguous || item.pinnedTo === endpoint.url;
        if (isLoadRefusal(err, onEngine)) {
          const delayMs = Math.min(MAX_THROTTLE_WAIT_MS, err.retryAfterSeconds !== undefined ? retryAfterWait(err.retryAfterSeconds * 1000) : backoffDelay(throttled));
          endpoint.refusedForLoad(delayMs);
          if (!ambiguous && this.elsewhere(endpoint)) throw new Moved();
          if (throttled++ >= MAX_THROTTLED_ROUNDS) throw err;
          options.onThrottled?.(item, endpoint, delayMs, err);
          await sleep(delayMs, options.signal);
          continue;
        }
        if (err instanceof ApiError && (err.status ?? 500) < 500 && !isKeyReuse(err)) throw err;
        if (neverReached(err)) {
          const reason = toWesError(err).message;
          if (endpoint.failedHard(reason)) options.onSetAside?.(endpoint, reason);
          if (!ambiguous && (endpoint.setAsideBecause !== null || this.elsewhere(endpoint))) throw new Moved();
        }
        if (attempt++ >= options.retries || endpoint.setAsideBecause !== null) throw err;
        await sleep(err instanceof ApiError && err.retryAfterSeconds !== undefined ? retryAfterWait(err.retryAfterSeconds * 1000) : backoffDelay(attempt - 1), options.signal);
      }
    }
  }

  private async download(job: FetchedJob): Promise<BatchResult> {
    const dir = join(this.options.downloadDir!, `${this.item.index}-${safeFileName(job.job.id, 'job')}`);
    const { saved, errors } = await downloadOutputs(this.endpoint.spec.client, job, { dir, hashing: this.options.hashing });
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
  if (run.jobId === null) {
    if (err instanceof InDoubtError) run.status = IN_DOUBT;
    else run.status = err instanceof ApiError && (err.status ?? 500) < 500 && error.exit_code !== ExitCode.THROTTLED ? REFUSED : FAILED_TO_RUN;
  }
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
    idempotency_key: item.earlier?.key ?? item.key,
    endpoint: item.pinnedTo,
    line_id: item.lineId,
  };
}

function notSubmitted(item: BatchItem, stoppedBy: WesError | undefined): BatchResult {
  const error = stoppedBy ? { ...errorOf(stoppedBy), code: 'not_submitted', message: `not submitted: ${stoppedBy.message}` } : null;
  // A line an earlier run made a job for (or may have) is not "not submitted": its result keeps what is known.
  if (item.earlier) {
    const jobId = item.earlier.kind === 'follow' ? item.earlier.jobId : null;
    return { index: item.index, job_id: jobId, status: jobId ? 'unknown' : IN_DOUBT, outputs: [], error, idempotency_key: item.earlier.key, endpoint: item.pinnedTo, line_id: item.lineId };
  }
  return { index: item.index, job_id: null, status: NOT_SUBMITTED, outputs: [], error, idempotency_key: item.key, line_id: item.lineId };
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
