// GET /api/jobs and GET /api/jobs/{id} of the cloud API, as the published document describes them
// (the interface does not show them): the account's jobs newest first, filtered by status
// (comma-separated), paged by offset and limit (1-1000, default 100), in the list's own words
// (pending, in_progress, completed, failed, cancelled); the detail adds the workflow and, once the
// job has ended, its outputs as node outputs. Times are seconds (create_time, update_time) and
// milliseconds (execution_start_time, execution_end_time), as published.
import type { EngineJob, EngineStatus, RequestContext } from '../contract.js';
import { sendJson, sendLegacyError } from '../http-kit.js';
import type { V1ExecutionError, V1JobDetail, V1JobEntry, V1JobsList } from '../../protocol/legacy.js';
import { nodeOutput } from './messages.js';

const LIST_STATUS: Record<EngineStatus, string> = {
  queued: 'pending',
  running: 'in_progress',
  canceling: 'in_progress',
  succeeded: 'completed',
  failed: 'failed',
  expired: 'failed',
  canceled: 'cancelled',
};
const LIST_STATUSES = new Set(Object.values(LIST_STATUS));
const ENDED = new Set<EngineStatus>(['succeeded', 'failed', 'expired', 'canceled']);

const seconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

function executionError(job: EngineJob): V1ExecutionError | undefined {
  if (!job.error) return undefined;
  return {
    node_id: job.error.node_id ?? '',
    node_type: job.error.class_type ?? '',
    exception_message: job.error.message,
    exception_type: job.error.exception_type ?? 'RuntimeError',
    traceback: job.error.traceback ? job.error.traceback.split(/(?<=\n)/) : [],
    current_inputs: {},
    current_outputs: {},
  };
}

function entryOf(job: EngineJob): V1JobEntry {
  const entry: V1JobEntry = { id: job.id, status: LIST_STATUS[job.status], create_time: seconds(job.created_at) };
  const error = executionError(job);
  if (error) entry.execution_error = error;
  if (ENDED.has(job.status)) {
    entry.outputs_count = job.outputs.length;
    if (job.started_at) entry.execution_start_time = Date.parse(job.started_at);
    if (job.completed_at) entry.execution_end_time = Date.parse(job.completed_at);
  }
  return entry;
}

function bounded(raw: string | null, fallback: number, min: number, max: number): number | null {
  if (raw === null) return fallback;
  const value = Number(raw);
  return Number.isInteger(value) && value >= min && value <= max ? value : null;
}

export async function listJobs(ctx: RequestContext): Promise<void> {
  const query = ctx.url.searchParams;
  const offset = bounded(query.get('offset'), 0, 0, Number.MAX_SAFE_INTEGER);
  const limit = bounded(query.get('limit'), 100, 1, 1000);
  if (offset === null || limit === null) return sendLegacyError(ctx, 400, 'invalid_request', 'offset must be 0 or more and limit 1 to 1000');
  const statuses = query.get('status')?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = statuses?.filter((s) => !LIST_STATUSES.has(s)) ?? [];
  if (unknown.length > 0) return sendLegacyError(ctx, 400, 'invalid_request', `unknown status ${unknown.join(', ')}; use ${[...LIST_STATUSES].join(', ')}`);
  const jobs = ctx.state.engine
    .list()
    .map(entryOf)
    .filter((entry) => !statuses?.length || statuses.includes(entry.status))
    .sort((a, b) => b.create_time - a.create_time);
  const answer: V1JobsList = { jobs: jobs.slice(offset, offset + limit), pagination: { offset, limit, total: jobs.length, has_more: offset + limit < jobs.length } };
  sendJson(ctx, 200, answer);
}

export async function jobDetail(ctx: RequestContext, jobId: string): Promise<void> {
  const job = ctx.state.engine.get(jobId);
  if (!job) return sendLegacyError(ctx, 404, 'not_found', `no job ${JSON.stringify(jobId)}`);
  const { execution_start_time: _start, execution_end_time: _end, ...entry } = entryOf(job);
  const detail: V1JobDetail = { ...entry, update_time: seconds(job.completed_at ?? job.started_at ?? job.created_at), workflow: job.workflow };
  if (ENDED.has(job.status)) {
    const byNode = new Map<string, EngineJob['outputs']>();
    for (const output of job.outputs) byNode.set(output.node_id, [...(byNode.get(output.node_id) ?? []), output]);
    detail.outputs = Object.fromEntries([...byNode].map(([node, outputs]) => [node, nodeOutput(outputs)]));
  }
  sendJson(ctx, 200, detail);
}
