// How a Job reads to a person: the one-line progress of a watch, the line of a committed output,
// and the full view of `jobs get`. Every server string goes through the sanitizer (renderFields,
// renderTable and the progress display sanitize; the rest here does it by hand). The view is the
// record only: hints (how to see more) are handed back apart, for stderr. On a terminal it has
// headings and aligned tables; piped, every line is `key<TAB>value...`, the outputs, node errors,
// traceback and log lines included (`output`, `node_error`, `traceback`, `log`), so `grep ^output`
// and `cut -f` work on it.
import type { IOStreams } from '../../render/io.js';
import { renderFields, renderTable, type Cell } from '../../render/table.js';
import { nodeErrorRows, renderNodeErrors } from '../../render/error.js';
import { sanitize, sanitizeLine } from '../../util/sanitize.js';
import type { Job, JobError, Output } from '../../protocol/jobs.js';
import { expiredEarly } from '../../clients/jobs/expired-race.js';
import { jobLogsOf } from '../../clients/jobs/job-logs.js';
import { keyOfLabels, labelsOf, userLabelText } from '../../clients/jobs/labels.js';
import { formatBytes } from '../../util/byte-count.js';


export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - m * 60)} s`;
}

function between(from: string | null | undefined, to: string | null | undefined): number | undefined {
  const a = Date.parse(from ?? '');
  const b = Date.parse(to ?? '');
  return Number.isFinite(a) && Number.isFinite(b) ? b - a : undefined;
}

function percent(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? `${Math.round(Math.min(1, Math.max(0, value)) * 100)}%` : undefined;
}

/**
 * The reference self-hosted server polls a running job as {value: 0, nodes_done: 0, nodes_total: 0}:
 * no progress known (the event stream carries it), not "0 of 0 nodes".
 */
function progressUnknown(p: NonNullable<Job['progress']>): boolean {
  return p.value === 0 && p.nodes_total === 0 && !p.current_node_class && typeof p.step !== 'number';
}

/** `running 45% · nodes 2/4 · Sample · step 9/20 · message` (fields present only when known). */
export function progressLine(job: Job): string {
  const parts: string[] = [`${job.id.slice(0, 8)} ${job.status}`];
  if (typeof job.queue_position === 'number') parts.push(`queue position ${job.queue_position}`);
  const p = job.progress;
  if (p && !progressUnknown(p) && job.status !== 'queued') {
    const pct = percent(p.value);
    if (pct) parts[0] += ` ${pct}`;
    if (typeof p.nodes_done === 'number' && typeof p.nodes_total === 'number') parts.push(`nodes ${p.nodes_done}/${p.nodes_total}`);
    if (p.current_node_class) parts.push(p.current_node ? `${p.current_node_class} (node ${p.current_node})` : p.current_node_class);
    if (typeof p.step === 'number' && typeof p.steps === 'number') parts.push(`step ${p.step}/${p.steps}`);
    // A message that only repeats what the line already says ("Sample step 2/12") is left out.
    if (p.message && !saysNothingNew(p.message, parts)) parts.push(p.message);
  }
  return sanitizeLine(parts.join(' · '));
}

function saysNothingNew(message: string, shown: string[]): boolean {
  const words = new Set(shown.join(' ').toLowerCase().split(/[\s()·]+/));
  return message.toLowerCase().split(/\s+/).every((word) => word === '' || words.has(word));
}

/** A declared size worth showing: the reference server declares 0 for every output, whatever its size. */
export function declaredSize(o: Output): string {
  return typeof o.size_bytes === 'number' && o.size_bytes > 0 ? formatBytes(o.size_bytes) : '';
}

export function outputLine(o: Output): string {
  const parts = [o.type, declaredSize(o), o.node_id ? `node ${o.node_id}` : ''].filter(Boolean);
  return sanitizeLine(`+ ${o.name} (${parts.join(', ')})`);
}

/** The closing line of a watch. */
export function outcomeLine(job: Job): string {
  const took = between(job.started_at ?? job.created_at, job.completed_at);
  const time = took === undefined ? '' : ` in ${formatDuration(took)}`;
  const count = job.outputs.length;
  switch (job.status) {
    case 'succeeded':
      return `job ${job.id} succeeded${time}: ${count} output${count === 1 ? '' : 's'}`;
    case 'failed':
      return sanitizeLine(`job ${job.id} failed${time}: ${job.error ? errorSummary(job.error) : 'no error detail'}`);
    case 'canceled':
      return `job ${job.id} was canceled`;
    case 'expired':
      return expiredEarly(job)
        ? sanitizeLine(`job ${job.id} expired: the service says so, although its retention runs until ${job.expires_at}`)
        : `job ${job.id} expired before it finished (retention passed)`;
    default:
      return sanitizeLine(`job ${job.id} is ${job.status}`);
  }
}

export function errorSummary(e: JobError): string {
  const where = e.node_id ? ` (node ${e.node_id}${e.class_type ? `, ${e.class_type}` : ''})` : e.class_type ? ` (${e.class_type})` : '';
  return sanitizeLine(`${e.code}: ${e.message}${where}`);
}

/** A part of a job's view: the record's text, and hints for stderr. */
export interface Rendered {
  text: string;
  hints: string[];
}

/** The traceback hint: not "add --verbose", which after `submit --wait` would submit a second job. */
function tracebackHint(jobId: string): string {
  return sanitizeLine(`(traceback hidden; show it with: wes jobs get ${jobId} --verbose)`);
}

/** The error block of a job (terminal layout): summary (unless already shown), traceback (--verbose), node-errors table. */
export function renderJobError(io: IOStreams, jobId: string, e: JobError, verbose: boolean, stream: 'stdout' | 'stderr', withSummary = true): Rendered {
  const lines = withSummary ? [`error: ${errorSummary(e)}`] : [];
  const hints: string[] = [];
  if (e.traceback) {
    if (verbose) lines.push(sanitize(e.traceback).trimEnd());
    else hints.push(tracebackHint(jobId));
  }
  const table = renderNodeErrors(io, e.node_errors, stream);
  if (table) lines.push(table);
  return { text: lines.join('\n'), hints };
}

function metricText(name: string, value: number | null): string {
  if (value === null) return 'not yet';
  if (name.endsWith('_ms')) return formatDuration(value);
  return name.endsWith('_bytes') ? formatBytes(value) : String(value);
}

/** Lines of the log shown by `jobs get`: its end (where a failure is), the rest is for `jobs logs`. */
const LOG_LINES_SHOWN = 20;

function logView(job: Job): { lines: string[]; note?: string; hint?: string } | undefined {
  const logs = jobLogsOf(job);
  if (!logs) return undefined;
  const all = sanitize(logs.text).replace(/\n$/, '').split('\n');
  const lines = logs.text === '' ? [] : all.slice(-LOG_LINES_SHOWN);
  const tail = logs.truncated ? 'the tail of a longer log' : undefined;
  const cut = lines.length < all.length ? `the last ${lines.length} of ${all.length} lines` : undefined;
  const note = [cut, tail, logs.text === '' ? (logs.truncated ? 'shed entirely to fit' : 'empty') : undefined].filter(Boolean).join('; ');
  return { lines, note: note || undefined, hint: cut ? sanitizeLine(`(the whole log: wes jobs logs ${job.id})`) : undefined };
}

function fieldsOf(job: Job): Array<[string, Cell]> {
  const p = job.progress;
  const progress = p && progressUnknown(p)
    ? `not known from a poll (wes jobs watch ${job.id} streams it)`
    : p
    ? [percent(p.value), typeof p.nodes_total === 'number' ? `nodes ${p.nodes_done}/${p.nodes_total}` : undefined, p.current_node_class ?? undefined,
       typeof p.step === 'number' && typeof p.steps === 'number' ? `step ${p.step}/${p.steps}` : undefined, p.message ?? undefined]
        .filter(Boolean)
        .join(' · ')
    : undefined;
  const run = between(job.started_at, job.completed_at);
  const wait = between(job.created_at, job.started_at);
  const fields: Array<[string, Cell]> = [
    ['id', job.id],
    ['status', job.status],
    ['queue position', job.queue_position],
    ['progress', progress],
    ['created', job.created_at],
    ['started', job.started_at],
    ['completed', job.completed_at],
    ['queued for', wait === undefined ? undefined : formatDuration(wait)],
    ['ran for', run === undefined ? undefined : formatDuration(run)],
    ['expires', job.expires_at],
    ['deployment', job.deployment_id],
    ['release', job.release_id],
    ['labels', userLabelText(labelsOf(job.metadata)) || undefined],
    ['idempotency key', keyOfLabels(labelsOf(job.metadata))],
  ];
  for (const [name, value] of Object.entries(job.metrics ?? {})) fields.push([`metric ${name}`, metricText(name, value)]);
  return fields;
}

const outputRow = (o: Output): Cell[] => [o.name, o.type, declaredSize(o), o.node_id];

/** The full human view of `jobs get`: the record, and hints for stderr. */
export function renderJob(io: IOStreams, job: Job, verbose: boolean): Rendered {
  return io.stdoutIsTTY ? renderJobForTerminal(io, job, verbose) : renderJobPiped(io, job, verbose);
}

function renderJobForTerminal(io: IOStreams, job: Job, verbose: boolean): Rendered {
  const sections = [renderFields(io, fieldsOf(job))];
  const hints: string[] = [];
  if (job.outputs.length) {
    sections.push(`\noutputs (${job.outputs.length}):`);
    sections.push(renderTable(io, ['name', 'type', 'size', 'node'], job.outputs.map(outputRow), 'stdout', { keep: [0] }));
  }
  if (job.error) {
    const error = renderJobError(io, job.id, job.error, verbose, 'stdout');
    sections.push('\n' + error.text);
    hints.push(...error.hints);
  }
  const log = logView(job);
  if (log) {
    sections.push(`\nlog${log.note ? ` (${log.note})` : ''}:`);
    if (log.lines.length) sections.push(log.lines.join('\n'));
    if (log.hint) hints.push(log.hint);
  }
  return { text: sections.join('\n'), hints };
}

/** Piped: one `key<TAB>value...` line each, the record's lists under their own keys. */
function renderJobPiped(io: IOStreams, job: Job, verbose: boolean): Rendered {
  const fields = fieldsOf(job);
  const hints: string[] = [];
  if (job.error) fields.push(['error', errorSummary(job.error)]);
  const log = logView(job);
  if (log?.note) fields.push(['log note', log.note]);
  const rows: Cell[][] = job.outputs.map((o) => ['output', ...outputRow(o)]);
  if (job.error) {
    rows.push(...nodeErrorRows(job.error.node_errors).map((r) => ['node_error', ...r]));
    if (job.error.traceback && verbose) rows.push(...sanitize(job.error.traceback).trimEnd().split('\n').map((line) => ['traceback', line]));
    else if (job.error.traceback) hints.push(tracebackHint(job.id));
  }
  if (log) {
    rows.push(...log.lines.map((line) => ['log', line]));
    if (log.hint) hints.push(log.hint);
  }
  const width = Math.max(2, ...rows.map((r) => r.length));
  const text = [renderFields(io, fields), ...(rows.length ? [renderTable(io, Array.from({ length: width }, () => ''), rows, 'stdout')] : [])].join('\n');
  return { text, hints };
}
