// How a Job reads to a person: the one-line progress of a watch, the line of a committed output,
// and the full view of `jobs get`. Every server string goes through the sanitizer (renderFields,
// renderTable and the progress display sanitize; the rest here does it by hand).
import type { IOStreams } from '../../render/io.js';
import { renderFields, renderTable, type Cell } from '../../render/table.js';
import { nodeErrorRows } from '../../render/error.js';
import { sanitize, sanitizeLine } from '../../render/sanitize.js';
import type { Job, JobError, Output } from '../../protocol/jobs.js';

import { formatBytes } from '../../render/byte-count.js';


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

/** `running 45% · nodes 2/4 · Sample · step 9/20 · message` (fields present only when known). */
export function progressLine(job: Job): string {
  const parts: string[] = [`${job.id.slice(0, 8)} ${job.status}`];
  if (typeof job.queue_position === 'number') parts.push(`queue position ${job.queue_position}`);
  const p = job.progress;
  if (p && job.status !== 'queued') {
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

export function outputLine(o: Output): string {
  const node = o.node_id ? `, node ${o.node_id}` : '';
  return sanitizeLine(`+ ${o.name} (${o.type}, ${formatBytes(o.size_bytes)}${node})`);
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
      return `job ${job.id} expired before it finished (retention passed)`;
    default:
      return sanitizeLine(`job ${job.id} is ${job.status}`);
  }
}

export function errorSummary(e: JobError): string {
  const where = e.node_id ? ` (node ${e.node_id}${e.class_type ? `, ${e.class_type}` : ''})` : e.class_type ? ` (${e.class_type})` : '';
  return sanitizeLine(`${e.code}: ${e.message}${where}`);
}

/** The error block of a job: summary (unless already shown), traceback (--verbose), node-errors table. */
export function renderJobError(io: IOStreams, jobId: string, e: JobError, verbose: boolean, stream: 'stdout' | 'stderr', withSummary = true): string {
  const lines = withSummary ? [`error: ${errorSummary(e)}`] : [];
  if (e.traceback) {
    if (verbose) lines.push(sanitize(e.traceback).trimEnd());
    // Not "add --verbose": after `submit --wait` that would submit a second job.
    else lines.push(sanitizeLine(`(traceback hidden; show it with: wes jobs get ${jobId} --verbose)`));
  }
  if (e.node_errors && typeof e.node_errors === 'object' && Object.keys(e.node_errors).length) {
    lines.push(renderTable(io, ['node', 'class', 'type', 'message', 'details'], nodeErrorRows(e.node_errors), stream));
  }
  return lines.join('\n');
}

function metricText(name: string, value: number | null): string {
  if (value === null) return 'not yet';
  if (name.endsWith('_ms')) return formatDuration(value);
  return name.endsWith('_bytes') ? formatBytes(value) : String(value);
}

/** The full human view of `jobs get`. */
export function renderJob(io: IOStreams, job: Job, verbose: boolean): string {
  const p = job.progress;
  const progress = p
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
  ];
  for (const [name, value] of Object.entries(job.metrics ?? {})) fields.push([`metric ${name}`, metricText(name, value)]);
  const sections = [renderFields(io, fields)];
  if (job.outputs.length) {
    sections.push(`\noutputs (${job.outputs.length}):`);
    sections.push(renderTable(io, ['name', 'type', 'size', 'node'], job.outputs.map((o) => [o.name, o.type, formatBytes(o.size_bytes), o.node_id]), 'stdout', { keep: [0] }));
  }
  if (job.error) sections.push('\n' + renderJobError(io, job.id, job.error, verbose, 'stdout'));
  return sections.join('\n');
}
