// wes jobs submit --batch FILE.jsonl [--concurrency N] [--resume RESULTS] [--results FILE]
// [--download DIR]: many jobs, N at a time, each submitted under a fresh single-use key, followed
// like `jobs watch` (polling, woken by the event stream) and saved when asked; one NDJSON result
// per line in input order. The journal is the truth: --resume follows every job it names, looks
// for the job of every key it sent without an answer, and submits only lines the server made
// nothing of. Ctrl-C stops submitting, leaves running jobs running, writes what it knows and says
// how to resume.
import { setMaxListeners } from 'node:events';
import { lstatSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { basename } from 'node:path';
import type { Factory } from '../../factory.js';
import { ExitCode, InterruptedError, UsageError } from '../../errors.js';
import { DEFAULT_RETRIES } from '../../http/retry.js';
import { toSafeJson } from '../../render/json.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { shellWord } from '../../util/shell-word.js';
import { withoutPassword } from '../../config/keys.js';
import { checkFileTarget, checkFolderTarget } from '../../files/targets.js';
import { AssetPlacer, referenceFor } from '../../clients/jobs/assets.js';
import type { Endpoint, EndpointStats } from '../../clients/jobs/batch-endpoints.js';
import { resultExitCode, runBatch, type BatchItem, type BatchResult } from '../../clients/jobs/batch-run.js';
import { isTerminal, type SubmitRequest } from '../../protocol/jobs.js';
import { readBatch, type BatchInput, type BatchLine } from './batch-input.js';
import { Journal, journalPathFor } from './batch-journal.js';
import { BatchProgress } from './batch-progress.js';
import { planLine, readPrevious, ResultBook, sentRecord, type Previous } from './batch-results.js';
import { buildEndpoints, endpointUrl } from './batch-via.js';
import { formatVia, parseBaseUrlTarget, type ViaTarget } from './via-target.js';
import { intervalMs } from '../poll-interval.js';
import type { JobsSubmitOptions } from './options.js';
import { batchHistory } from '../../features/jobs/history.js';
import { applyAssignments } from '../../features/jobs/inputs.js';

const DEFAULT_CONCURRENCY = 4;

/** Which exit code wins when lines end differently: what concerns the whole batch first. */
const SEVERITY = [ExitCode.TERMINATED, ExitCode.INTERRUPTED, ExitCode.AUTH, ExitCode.CREDITS, ExitCode.TIMEOUT, ExitCode.ERROR, ExitCode.IN_DOUBT, ExitCode.THROTTLED, ExitCode.USAGE, ExitCode.REFUSED, ExitCode.NOT_FOUND, ExitCode.FAILED, ExitCode.CANCELED];

export function worstExitCode(codes: number[]): number {
  const failing = codes.filter((c) => c !== ExitCode.OK);
  if (failing.length === 0) return ExitCode.OK;
  const rank = (c: number) => (SEVERITY.includes(c as (typeof SEVERITY)[number]) ? SEVERITY.indexOf(c as (typeof SEVERITY)[number]) : SEVERITY.length);
  return failing.reduce((worst, c) => (rank(c) < rank(worst) ? c : worst));
}


/** The first line of the summary: counts by status, and what an earlier run already did. */
function summary(total: number, counts: Map<string, number>, resumed: number): string {
  const parts = [...counts].map(([status, n]) => `${n} ${status}`);
  return `batch of ${total}: ${parts.join(', ')}${resumed ? ` (${resumed} succeeded in an earlier run)` : ''}`;
}

/** One line per endpoint: what it took, its rate, and what pacing did (shown with several endpoints, or after a 429). */
function endpointLine(e: EndpointStats): string {
  const pacing = e.throttled ? `; pacing: ${e.throttled} queue-full answer(s), in-flight window down to ${e.minWindow} of ${e.concurrency}` : `; ${e.concurrency} in flight at most`;
  const aside = e.setAside ? `; set aside: ${e.setAside}` : '';
  return sanitizeLine(`  ${e.name}: ${e.submitted} submitted, ${e.succeeded} succeeded, ${e.failed} failed, ${e.rate.toFixed(1)} jobs/s${pacing}${aside}`);
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
 * A batch keeps V8's heap near what it holds, so its peak does not depend on its length. V8
 * doubles the young generation (up to 16 MB a semi-space, 48 MB in all) each time as many bytes
 * survived a scavenge as it holds; a batch's lines live for a few scavenges each (their requests
 * and follows), so over a long batch it always reached the maximum: 100 000 lines peaked ~30 MB
 * above 1 000 with no more data held. It stays at its starting 1 MB. The lines' objects then die
 * in the old generation, which V8 lets grow up to 4x its live size before a full collection; 1.5x
 * keeps the rest of the gap (128 -> ~114 MB over 20 000 lines). The cost is more collections:
 * 10-25 % more client CPU, the same wall time (bench/RESULTS.md). Both flags are read at each
 * resize, so setting them now takes effect.
 */
function keepHeapSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=50');
}

/** `jobs submit --batch FILE`: the options declared in options.ts say which flags go with it. */
export async function run(f: Factory, batchPath: string, opts: JobsSubmitOptions): Promise<number> {
  const { io } = f;
  keepHeapSmall();
  if (opts.download !== undefined) await checkFolderTarget(opts.download, '--download');
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  // --base-url given more than once: one endpoint each, beside the --via ones.
  const vias = [...(opts.via ?? []), ...(f.globals.baseUrls ?? []).map(parseBaseUrlTarget)];
  const sets = opts.set ?? [];
  const resultsPath = opts.results;
  if (resultsPath !== undefined) await checkFileTarget(resultsPath, '--results');
  if (resultsPath !== undefined && opts.resume !== resultsPath) refuseEarlierRun(resultsPath, opts.resume);
  const input = await readBatch(batchPath, io.stdin, sets);
  try {
    // The journal is opened (or created) before anything is sent: an unwritable target stops here.
    const journal = resultsPath ? Journal.open(journalPathFor(resultsPath)) : await Journal.anonymous();
    try {
      return await runWithJournal(f, opts, { batchPath, input, journal, resultsPath, concurrency, intervalMs: intervalMs(opts.interval), vias });
    } finally {
      journal.close();
    }
  } finally {
    await input.dispose();
  }
}

/**
 * A new run never writes onto an earlier run's results or journal: its keys are new, so it would
 * make every line's job again. Going on from it is --resume; a new run needs another file.
 */
function refuseEarlierRun(resultsPath: string, resume: string | undefined): void {
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

interface Plan {
  batchPath: string;
  input: BatchInput;
  journal: Journal;
  resultsPath: string | undefined;
  concurrency: number;
  intervalMs: number;
  vias: ViaTarget[];
}

async function runWithJournal(f: Factory, opts: JobsSubmitOptions, plan: Plan): Promise<number> {
  const { io } = f;
  const { input, journal, resultsPath } = plan;
  const previous = opts.resume !== undefined ? readPrevious(opts.resume, journal) : new Map<number, Previous>();
  const totalInFlight = (plan.vias.length ? plan.vias.map((v) => v.concurrency ?? plan.concurrency) : [plan.concurrency]).reduce((a, b) => a + b, 0);
  const signal = batchSignal(f.signal, totalInFlight);
  const endpoints = await buildEndpoints(f, plan.vias, { concurrency: plan.concurrency, signal, events: opts.events !== false, intervalMs: plan.intervalMs });
  const book = new ResultBook(journal, input.count, resultsPath ? undefined : (line) => io.stdout.write(line));
  const progress = await BatchProgress.start(io, input.count, () => endpoints.reduce((n, e) => n + e.inFlight, 0));

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

  const placers = new Map(endpoints.map((e) => [e, new AssetPlacer(e.spec.client)]));
  const history = batchHistory(f, (line) => io.debug(line));
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
    const partnerKey = endpoint.spec.partnerKey;
    return partnerKey ? { workflow, extra_data: { api_key_service_org: partnerKey } } : { workflow };
  };

  async function* items(): AsyncGenerator<BatchItem> {
    let ordinal = 0;
    for await (const line of input.lines()) {
      const plan = planLine(previous.get(line.index), line.id, { retryFailed: opts.retryFailed });
      previous.delete(line.index); // forgotten once read: memory holds the lines in flight, not the batch
      if (plan.kind === 'carry') {
        resumed++;
        const text = plan.text();
        record(JSON.parse(text) as BatchResult, ordinal++, text);
        progress.carried();
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
    io.info(`resuming: ${done} of ${input.count} line(s) already succeeded; following the jobs already made, running the rest`);
  }
  let outcome;
  try {
    outcome = await runBatch(endpoints, items(), {
      intervalMs: plan.intervalMs,
      signal,
      retries: f.retries() ?? DEFAULT_RETRIES,
      downloadDir: opts.download,
      resubmitInDoubt: opts.resubmitInDoubt,
      label: opts.label,
      onSend: (item, endpoint, key, sentAt) => void journal.append(sentRecord({ index: item.index, idempotency_key: key, sent_to: endpoint.url, sent_at: sentAt, line_id: item.lineId })),
      onSubmitted: (item, endpoint, jobId, key) => {
        journal.append(sentRecord({ index: item.index, idempotency_key: key, sent_to: endpoint.url, job_id: jobId, line_id: item.lineId }));
        if (!endpoint.spec.engine && endpoint.url === (historyUrl ??= endpointUrl(f.settings().baseUrl))) history.recordSubmitted({ id: jobId, status: 'queued' }, `batch ${basename(plan.batchPath)}:${item.index}`);
        io.debug(`line ${item.index}: submitted job ${jobId} on ${endpoint.name}`);
      },
      onThrottled: (item, endpoint, delayMs, err) => io.debug(sanitizeLine(`line ${item.index}: ${endpoint.name}: ${err.code} (${err.message}); submitting again in ${delayMs} ms`)),
      onSetAside: (endpoint, reason) => progress.note(sanitizeLine(`${endpoint.name} set aside after repeated failures (${reason}); its lines go to the others`)),
      onResult: (result, item) => {
        record(result, item.ordinal);
        if (result.job_id !== null) history.recordStatus({ id: result.job_id, status: result.status });
        progress.finished(result, resultExitCode(result) === ExitCode.OK);
      },
    });
  } finally {
    history.close();
  }
  progress.stop();
  if (resultsPath) {
    await book.commit(resultsPath);
    journal.remove();
  }

  io.info(summary(input.count, counts, resumed));
  const stats = endpoints.map((e) => e.stats());
  if (stats.length > 1 || stats.some((e) => e.throttled || e.setAside)) for (const e of stats) io.info(endpointLine(e));
  if (resultsPath) io.info(`results: ${resultsPath}`);
  const stopped = outcome.stoppedBy;
  if (stopped && f.signal.aborted) {
    const goesOn = `stopped submitting${stillRunning ? `, ${stillRunning} job(s) keep running on the service` : ''}`;
    const resume = resumeCommand(input.source === '-' ? '-' : plan.batchPath, resultsPath, opts, f.globals.baseUrls);
    if (stopped instanceof InterruptedError) throw stopped.tell(goesOn, resume);
    io.notice(`timed out; ${goesOn}.`);
    io.notice(`resume with: ${resume}`);
    return stopped.exitCode;
  }
  if (stopped) {
    io.warn(sanitizeLine(`stopped submitting${firstHaltLine !== undefined ? ` after line ${firstHaltLine}` : ''}: ${stopped.message}`));
    if (resultsPath) io.notice(`resume with: ${resumeCommand(input.source === '-' ? '-' : plan.batchPath, resultsPath, opts, f.globals.baseUrls)}`);
  }
  return worstExitCode([...exitCodes]);
}

/**
 * The command that completes this run: the same file, the same --set flags (they are part of each
 * line's key), the same folders and pace, with --resume pointing at the results.
 */
function resumeCommand(source: string, resultsPath: string | undefined, opts: JobsSubmitOptions, baseUrls: string[] = []): string {
  const words = ['wes', ...baseUrls.flatMap((url) => ['--base-url', withoutPassword(url)]), 'jobs', 'submit', '--batch', source];
  for (const set of opts.set ?? []) words.push('--set', set);
  if (opts.concurrency !== undefined) words.push('--concurrency', `${opts.concurrency}`);
  if (opts.interval !== undefined) words.push('--interval', `${opts.interval}`);
  if (opts.download !== undefined) words.push('--download', opts.download);
  for (const via of opts.via ?? []) words.push('--via', formatVia(via));
  words.push('--resume', resultsPath ?? 'RESULTS.jsonl');
  if (resultsPath) words.push('--results', resultsPath);
  return words.map(shellWord).join(' ') + (resultsPath ? '' : '   (RESULTS.jsonl: the lines this run printed on stdout)');
}
