// `jobs submit --batch FILE.jsonl`: many jobs, N at a time, each submitted under a fresh
// single-use key, followed like `jobs watch` (polling, woken by the event stream) and saved when
// asked; one NDJSON result per line in input order. The journal is the truth: --resume follows
// every job it names, looks for the job of every key it sent without an answer, and submits only
// lines the server made nothing of. Ctrl-C stops submitting and leaves running jobs running; the
// outcome says what happened, for the command to tell and to say how to resume.
import type { JobLabels } from '../../protocol/jobs.js';
import { setMaxListeners } from 'node:events';
import { lstatSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { ExitCode, UsageError, type WesError } from '../../errors.js';
import { DEFAULT_RETRIES } from '../../http/retry.js';
import { toSafeJson } from '../../util/safe-json.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { AssetPlacer, referenceFor } from '../transfers/asset-placer.js';
import { isTerminal, type SubmitRequest } from '../../protocol/jobs.js';
import { jobExtraData, promptExtraData } from '../partner-extra-data.js';
import type { FeatureContext } from '../context.js';
import type { Reporter } from '../reporter.js';
import { batchHistory } from '../jobs/history.js';
import { applyAssignments } from '../jobs/inputs.js';
import type { Endpoint, EndpointStats } from './endpoint.js';
import { readBatch, type BatchInput, type BatchLine } from './input.js';
import { Journal, journalPathFor } from './journal.js';
import { planLine, readPrevious, ResultBook, sentRecord, type Previous } from './results.js';
import { resultExitCode, runBatch, type BatchItem, type BatchResult } from './runner.js';
import { buildEndpoints, endpointUrl } from './via.js';
import type { ViaTarget } from './via-target.js';

export interface BatchRun {
  /** The batch file (`-`: standard input). */
  batchPath: string;
  /** --set inputs given for every line. */
  sets: string[];
  concurrency: number;
  intervalMs: number;
  /** The endpoints (--via, repeated --base-url); none: the command's own settings. */
  vias: ViaTarget[];
  /** --results FILE (else the results go to the reporter's data, for stdout). */
  resultsPath?: string;
  /** --resume RESULTS: the earlier run to go on from. */
  resume?: string;
  download?: string;
  /** Wake follows with the event stream (false: --no-events). */
  events: boolean;
  resubmitInDoubt?: boolean;
  retryFailed?: boolean;
  labels?: JobLabels;
}

/** A line of the batch that is over: carried from an earlier run, or finished in this one. */
export type BatchLineOver = { kind: 'carried' } | { kind: 'finished'; result: BatchResult; ok: boolean };

/** How a batch tells what happens while it runs. */
export interface BatchReporter extends Reporter {
  /** The batch starts: `total` lines; `running()` counts the lines in flight now. */
  start(total: number, running: () => number): Promise<void>;
  progress(line: BatchLineOver): void;
  /** Something that happened and stays on record (an endpoint set aside). */
  event(line: string): void;
  /** The results, in input order, as they become printable (NDJSON text): only when no results file is written. */
  data(text: string): void;
  stop(): void;
}

export interface BatchOutcome {
  total: number;
  /** Where the lines came from (`-`: standard input). */
  source: string;
  /** Lines by status. */
  counts: Map<string, number>;
  /** Lines that succeeded in an earlier run. */
  resumed: number;
  stats: EndpointStats[];
  /** What stopped the batch from submitting (Ctrl-C, --timeout, a refused credential). */
  stoppedBy?: WesError;
  /** Jobs made and not ended when the batch stopped. */
  stillRunning: number;
  /** The line whose refusal stopped the batch. */
  firstHaltLine?: number;
  /** Every line's exit code. */
  exitCodes: number[];
}

/** The signal the batch runs under: Ctrl-C and --timeout, with room for the listeners its lines in flight add. */
function batchSignal(parent: AbortSignal, inFlight: number): AbortSignal {
  const controller = new AbortController();
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener('abort', () => controller.abort(parent.reason), { once: true });
  // Each line in flight listens at most three times (its request or wait, its event stream, a
  // download); the count is bounded by the concurrency, so the default warning at 10 is noise.
  setMaxListeners(inFlight * 3 + 16, controller.signal);
  return controller.signal;
}

/**
 * A new run never writes onto an earlier run's results or journal: its keys are new, so it would
 * make every line's job again. Going on from it is --resume; a new run needs another file.
 */
export function refuseEarlierRun(resultsPath: string, resume: string | undefined): void {
  const journal = journalPathFor(resultsPath);
  // Only a regular file is a run's: a link or anything else there is in the way, and is replaced (never followed) as before.
  const found = [resultsPath, journal].filter((path) => lstatSync(path, { throwIfNoEntry: false })?.isFile());
  if (found.length === 0) return;
  const what = found.includes(journal) ? `${journal} holds a run that did not end` : `${resultsPath} holds the results of an earlier run`;
  throw new UsageError(
    `${what}; a new run would submit every line again under new keys`,
    resume === undefined
      ? `to go on from it (following its jobs, never making them twice): add --resume ${resultsPath}; to start a new run: remove ${found.join(' and ')}, or choose another --results file`
      : `--resume ${resume} reads another run: write this run's results elsewhere, or remove ${found.join(' and ')}`,
  );
}

/** Runs the batch whose targets the command has checked; `stdin` is read for `-`. */
export async function runBatchFile(f: FeatureContext, run: BatchRun, stdin: Readable, reporter: BatchReporter): Promise<BatchOutcome> {
  const input = await readBatch(run.batchPath, stdin, run.sets);
  try {
    // The journal is opened (or created) before anything is sent: an unwritable target stops here.
    const journal = run.resultsPath ? Journal.open(journalPathFor(run.resultsPath)) : await Journal.anonymous();
    try {
      return await runWithJournal(f, run, input, journal, reporter);
    } finally {
      journal.close();
    }
  } finally {
    await input.dispose();
  }
}

async function runWithJournal(f: FeatureContext, run: BatchRun, input: BatchInput, journal: Journal, reporter: BatchReporter): Promise<BatchOutcome> {
  const { resultsPath } = run;
  const debug = (line: string) => reporter.notice('debug', line);
  const previous = run.resume !== undefined ? readPrevious(run.resume, journal) : new Map<number, Previous>();
  const totalInFlight = (run.vias.length ? run.vias.map((v) => v.concurrency ?? run.concurrency) : [run.concurrency]).reduce((a, b) => a + b, 0);
  const signal = batchSignal(f.signal, totalInFlight);
  const endpoints = await buildEndpoints(f, run.vias, { concurrency: run.concurrency, signal, events: run.events, intervalMs: run.intervalMs }, reporter);
  const book = new ResultBook(journal, input.count, resultsPath ? undefined : (line) => reporter.data(line));
  await reporter.start(input.count, () => endpoints.reduce((n, e) => n + e.inFlight, 0));

  const counts = new Map<string, number>();
  const exitCodes = new Set<number>();
  let resumed = 0;
  let stillRunning = 0;
  let firstHaltLine: number | undefined;
  const record = (result: BatchResult, ordinal: number, text = toSafeJson(result)) => {
    book.put(ordinal, text, journal.append(text));
    counts.set(result.status, (counts.get(result.status) ?? 0) + 1);
    const code = resultExitCode(result);
    exitCodes.add(code);
    if (result.job_id !== null && !isTerminal(result.status)) stillRunning++;
    if (code === ExitCode.AUTH) firstHaltLine ??= result.index;
  };

  const placers = new Map(endpoints.map((e) => [e, new AssetPlacer(e.spec.client, f.hashing())]));
  const history = batchHistory(f, debug);
  // The history is of the job API, per profile and base URL: lines sent elsewhere, or to an engine, are not this one's.
  // Its URL is parsed once, at the first job API submit, not for every line.
  let historyUrl: string | undefined;
  const build = (line: BatchLine) => async (endpoint: Endpoint): Promise<SubmitRequest> => {
    const placer = placers.get(endpoint)!;
    const workflow = await applyAssignments(line.workflow, line.assignments, async (input) => {
      const named = input.kind === 'file' ? `@${input.path}` : `asset:${input.id}`;
      if (endpoint.spec.engine) throw new UsageError(`--set …=${named}: ${endpoint.name} is a self-hosted engine, which takes no job API assets`, 'upload the file there with `wes legacy upload` and set its name instead');
      return (await referenceFor(placer, input)).reference;
    });
    // An engine takes the prompt's credentials (the token too); the job API the key alone.
    const extra = endpoint.spec.engine ? promptExtraData(endpoint.spec) : jobExtraData(endpoint.spec);
    return extra ? { workflow, extra_data: extra } : { workflow };
  };

  async function* items(): AsyncGenerator<BatchItem> {
    let ordinal = 0;
    for await (const line of input.lines()) {
      const plan = planLine(previous.get(line.index), line.id, { retryFailed: run.retryFailed });
      previous.delete(line.index); // forgotten once read: memory holds the lines in flight, not the batch
      if (plan.kind === 'carry') {
        resumed++;
        const text = plan.text();
        record(JSON.parse(text) as BatchResult, ordinal++, text);
        reporter.progress({ kind: 'carried' });
        continue;
      }
      const item: BatchItem = { index: line.index, ordinal: ordinal++, key: randomUUID(), lineId: line.id, request: build(line) };
      if (plan.kind !== 'send') {
        item.earlier = plan.kind === 'follow' ? { kind: 'follow', jobId: plan.jobId, key: plan.key } : { kind: 'find', key: plan.key, ...(plan.sentAt !== undefined ? { sentAt: plan.sentAt } : {}) };
        item.pinnedTo = plan.endpoint;
      }
      yield item;
    }
  }

  if (previous.size) {
    const done = [...previous.values()].filter((p) => p.result?.status === 'succeeded' && !p.result.error && !p.sentIsNewer).length;
    reporter.notice('info', `resuming: ${done} of ${input.count} line(s) already succeeded; following the jobs already made, running the rest`);
  }
  let outcome;
  try {
    outcome = await runBatch(endpoints, items(), {
      intervalMs: run.intervalMs,
      signal,
      retries: f.retries() ?? DEFAULT_RETRIES,
      downloadDir: run.download,
      hashing: f.hashing(),
      resubmitInDoubt: run.resubmitInDoubt,
      labels: run.labels,
      onSend: (item, endpoint, key, sentAt) => void journal.append(sentRecord({ index: item.index, idempotency_key: key, sent_to: endpoint.url, sent_at: sentAt, line_id: item.lineId })),
      onSubmitted: (item, endpoint, jobId, key) => {
        journal.append(sentRecord({ index: item.index, idempotency_key: key, sent_to: endpoint.url, job_id: jobId, line_id: item.lineId }));
        if (!endpoint.spec.engine && endpoint.url === (historyUrl ??= endpointUrl(f.settings().baseUrl))) history.recordSubmitted({ id: jobId, status: 'queued' }, `batch ${basename(run.batchPath)}:${item.index}`);
        debug(`line ${item.index}: submitted job ${jobId} on ${endpoint.name}`);
      },
      onThrottled: (item, endpoint, delayMs, err) => debug(sanitizeLine(`line ${item.index}: ${endpoint.name}: ${err.code} (${err.message}); submitting again in ${delayMs} ms`)),
      onSetAside: (endpoint, reason) => reporter.event(sanitizeLine(`${endpoint.name} set aside after repeated failures (${reason}); its lines go to the others`)),
      onResult: (result, item) => {
        record(result, item.ordinal);
        if (result.job_id !== null) history.recordStatus({ id: result.job_id, status: result.status });
        reporter.progress({ kind: 'finished', result, ok: resultExitCode(result) === ExitCode.OK });
      },
    });
  } finally {
    history.close();
  }
  reporter.stop();
  if (resultsPath) {
    await book.commit(resultsPath);
    journal.remove();
  }
  return {
    total: input.count,
    source: input.source,
    counts,
    resumed,
    stats: endpoints.map((e) => e.stats()),
    stoppedBy: outcome.stoppedBy,
    stillRunning,
    firstHaltLine,
    exitCodes: [...exitCodes],
  };
}
