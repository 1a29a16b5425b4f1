// wes jobs submit --batch FILE.jsonl [--concurrency N] [--resume RESULTS] [--results FILE]
// [--download DIR]: many jobs, N at a time, each submitted with a key derived from its line,
// followed like `jobs watch` (polling, woken by the event stream) and saved when asked; one
// NDJSON result per line in input order. Ctrl-C stops submitting, leaves running jobs running,
// writes what it knows and says how to resume.
import type { Factory } from '../../factory.js';
import { ExitCode, UsageError } from '../../errors.js';
import { sanitizeLine } from '../../render/sanitize.js';
import { AssetPlacer } from '../../surfaces/jobs/assets.js';
import { JobsClient } from '../../surfaces/jobs/client.js';
import { NOT_SUBMITTED, resultExitCode, runBatch, type BatchItem, type BatchResult } from '../../surfaces/jobs/batch-run.js';
import { isTerminal, type SubmitRequest } from '../../protocol/jobs.js';
import { readBatch, type BatchLine } from './batch-input.js';
import { alreadyDone, fileSink, keyForRun, OrderedResults, readResults, streamSink } from './batch-results.js';
import { parseInterval } from './follow-run.js';
import { applyAssignments } from './set-inputs.js';

const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 256;

/** Which exit code wins when lines end differently: what concerns the whole batch first. */
const SEVERITY = [ExitCode.INTERRUPTED, ExitCode.AUTH, ExitCode.CREDITS, ExitCode.TIMEOUT, ExitCode.ERROR, ExitCode.THROTTLED, ExitCode.USAGE, ExitCode.REFUSED, ExitCode.NOT_FOUND, ExitCode.FAILED, ExitCode.CANCELED];

export function worstExitCode(codes: number[]): number {
  const failing = codes.filter((c) => c !== ExitCode.OK);
  if (failing.length === 0) return ExitCode.OK;
  const rank = (c: number) => (SEVERITY.includes(c as (typeof SEVERITY)[number]) ? SEVERITY.indexOf(c as (typeof SEVERITY)[number]) : SEVERITY.length);
  return failing.reduce((worst, c) => (rank(c) < rank(worst) ? c : worst));
}

function parseConcurrency(value: unknown): number {
  if (value === undefined) return DEFAULT_CONCURRENCY;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONCURRENCY) throw new UsageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got ${String(value)}`);
  return n;
}

function refuseSingleJobFlags(opts: Record<string, unknown>, workflowArg: string | undefined): void {
  if (workflowArg !== undefined) throw new UsageError('give either a workflow file or --batch FILE.jsonl, not both');
  if (opts.idempotencyKey !== undefined) throw new UsageError('--idempotency-key does not go with --batch: each line gets a key derived from the line');
  if (opts.cancelOnInterrupt === true) throw new UsageError('--cancel-on-interrupt does not go with --batch: Ctrl-C leaves the batch\'s jobs running, and --resume picks them up');
}

/** One stderr line per finished line of the batch (people read these; scripts read the results). */
function describe(result: BatchResult): string {
  const job = result.job_id ? `job ${result.job_id} ` : '';
  const outputs = result.outputs.length ? ` (${result.outputs.length} output${result.outputs.length === 1 ? '' : 's'})` : '';
  const error = result.error ? `: ${result.error.code}: ${result.error.message}` : '';
  return sanitizeLine(`line ${result.index}: ${job}${result.status}${outputs}${error}`);
}

function summary(results: BatchResult[], resumed: number): string {
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  const parts = [...counts].map(([status, n]) => `${n} ${status}`);
  return `batch of ${results.length}: ${parts.join(', ')}${resumed ? ` (${resumed} succeeded in an earlier run)` : ''}`;
}

export async function run(f: Factory, args: string[], opts: Record<string, unknown>): Promise<number> {
  const { io } = f;
  refuseSingleJobFlags(opts, args[0]);
  const batchPath = opts.batch as string;
  const concurrency = parseConcurrency(opts.concurrency);
  const intervalMs = parseInterval(opts.interval);
  const input = await readBatch(batchPath, io.stdin, (opts.set as string[] | undefined) ?? []);
  const previous = typeof opts.resume === 'string' ? await readResults(opts.resume) : new Map<number, BatchResult>();
  const done = new Set(input.lines.filter((line) => alreadyDone(previous.get(line.index), line.key)));
  const todo = input.lines.filter((line) => !done.has(line));

  const resultsPath = typeof opts.results === 'string' ? opts.results : undefined;
  const sink = resultsPath ? await fileSink(resultsPath) : streamSink(io.stdout);
  const ordered = new OrderedResults(input.lines.map((l) => l.index), sink);
  for (const line of done) ordered.put(previous.get(line.index)!);
  if (done.size) io.info(`resuming: ${done.size} of ${input.lines.length} line(s) already succeeded; running the other ${todo.length}`);

  const client = new JobsClient(f.http());
  const placer = new AssetPlacer(client);
  const partnerKey = f.settings().partnerKey;
  const build = (line: BatchLine) => async (): Promise<SubmitRequest> => {
    const workflow = await applyAssignments(line.workflow, line.assignments, async (path) => (await placer.place(path)).asset.id);
    return partnerKey ? { workflow, extra_data: { api_key_service_org: partnerKey } } : { workflow };
  };
  const items: BatchItem[] = todo.map((line) => ({ index: line.index, key: keyForRun(line.key, previous.get(line.index)), request: build(line) }));

  const outcome = await runBatch(client, items, {
    concurrency,
    intervalMs,
    signal: f.signal,
    openEvents: opts.events !== false ? (signal) => new JobsClient(f.http(AbortSignal.any([f.signal, signal]))) : undefined,
    downloadDir: typeof opts.download === 'string' ? opts.download : undefined,
    onSubmitted: (item, jobId) => io.debug(`line ${item.index}: submitted job ${jobId}`),
    onThrottled: (item, delayMs, err) => io.debug(sanitizeLine(`line ${item.index}: ${err.code} (${err.message}); submitting again in ${delayMs} ms`)),
    onResult: (result) => {
      ordered.put(result);
      if (result.status !== NOT_SUBMITTED) io.info(describe(result));
    },
  });
  await sink.commit();

  const ran = new Map(outcome.results.map((r) => [r.index, r]));
  const all = input.lines.map((line) => (done.has(line) ? previous.get(line.index)! : ran.get(line.index)!));
  io.info(summary(all, done.size));
  if (resultsPath) io.info(`results: ${resultsPath}`);
  const stopped = outcome.stoppedBy;
  if (stopped && f.signal.aborted) {
    const running = outcome.results.filter((r) => r.job_id !== null && !isTerminal(r.status)).length;
    io.warn(`${stopped.code === 'timeout' ? 'timed out' : 'interrupted'}; stopped submitting${running ? `, ${running} job(s) keep running on the service` : ''}.`);
    io.warn(`resume with: ${resumeCommand(input.source === '-' ? '-' : batchPath, resultsPath, opts)}`);
    return stopped.exitCode;
  }
  if (stopped) io.warn(sanitizeLine(`stopped submitting after line ${all.find((r) => r.error?.exit_code === stopped.exitCode)?.index ?? '?'}: ${stopped.message}`));
  return worstExitCode(all.map(resultExitCode));
}

/** Shell-quotes one word (POSIX single quotes) unless it is plainly safe. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command that completes this run: the same file, the same --set flags (they are part of each
 * line's key), the same folders and pace, with --resume pointing at the results.
 */
function resumeCommand(source: string, resultsPath: string | undefined, opts: Record<string, unknown>): string {
  const words = ['wes', 'jobs', 'submit', '--batch', source];
  for (const set of (opts.set as string[] | undefined) ?? []) words.push('--set', set);
  for (const flag of ['concurrency', 'interval', 'download'] as const) {
    if (typeof opts[flag] === 'string') words.push(`--${flag}`, opts[flag] as string);
  }
  words.push('--resume', resultsPath ?? 'RESULTS.jsonl');
  if (resultsPath) words.push('--results', resultsPath);
  return words.map(shellWord).join(' ') + (resultsPath ? '' : '   (RESULTS.jsonl: the lines this run printed on stdout)');
}
