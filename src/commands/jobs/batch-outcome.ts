// The outcome of `wes jobs submit --batch FILE.jsonl` (a run of src/features/batch/batch.ts), as
// told once it is over: a summary, each endpoint's share, where the results are, and when it
// stopped early, how to resume. Exit 0 when every line succeeded, else the gravest line's code.
import type { Factory } from '../../factory.js';
import { ExitCode, InterruptedError } from '../../errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { shellWord } from '../../util/shell-word.js';
import { withoutPassword } from '../../config/keys.js';
import type { EndpointStats } from '../../features/batch/endpoint.js';
import type { BatchOutcome } from '../../features/batch/batch.js';
import { formatVia } from '../../features/batch/via-target.js';
import type { JobsSubmitOptions } from './options.js';

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

/** The summary, each endpoint's share, where the results are; when the batch stopped early, how to resume. */
export function tellOutcome(f: Factory, batchPath: string, opts: JobsSubmitOptions, outcome: BatchOutcome): number {
  const { io } = f;
  const resultsPath = opts.results;
  io.info(summary(outcome.total, outcome.counts, outcome.resumed));
  const { stats } = outcome;
  if (stats.length > 1 || stats.some((e) => e.throttled || e.setAside)) for (const e of stats) io.info(endpointLine(e));
  if (resultsPath) io.info(`results: ${resultsPath}`);
  const stopped = outcome.stoppedBy;
  const source = outcome.source === '-' ? '-' : batchPath;
  if (stopped && f.signal.aborted) {
    const goesOn = `stopped submitting${outcome.stillRunning ? `, ${outcome.stillRunning} job(s) keep running on the service` : ''}`;
    const resume = resumeCommand(source, resultsPath, opts, f.globals.baseUrls);
    const aside = resultsPath ? undefined : RESULTS_ASIDE;
    // The results were the output that failed: no lines to resume from.
    if (stopped instanceof InterruptedError && stopped.signal === 'OUTPUT_FAILED' && !resultsPath) {
      throw stopped.tell(`${goesOn}; the result lines went with the output, so this run cannot be resumed: \`wes jobs list\` shows the jobs it submitted (--results FILE keeps the results apart from the output)`);
    }
    if (stopped instanceof InterruptedError) throw stopped.tell(goesOn, resume, undefined, aside);
    io.notice(`timed out; ${goesOn}.`);
    io.notice(`resume with: ${resume}${aside ? `   ${aside}` : ''}`);
    return stopped.exitCode;
  }
  if (stopped) {
    io.warn(sanitizeLine(`stopped submitting${outcome.firstHaltLine !== undefined ? ` after line ${outcome.firstHaltLine}` : ''}: ${stopped.message}`));
    if (resultsPath) io.notice(`resume with: ${resumeCommand(source, resultsPath, opts, f.globals.baseUrls)}`);
  }
  return worstExitCode(outcome.exitCodes);
}

/**
 * The command that completes this run: the same file, the same --set flags (they are part of each
 * line's id, which matches a line to its earlier result), the same folders and pace, with --resume
 * pointing at the results.
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
  return words.map(shellWord).join(' ');
}

/** Where RESULTS.jsonl in the resume command comes from, when the run wrote no --results file. */
const RESULTS_ASIDE = '(RESULTS.jsonl: the lines this run printed on stdout)';
