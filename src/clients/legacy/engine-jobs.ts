// A self-hosted engine has no job list (GET /api/jobs is the cloud's): its queue and its history
// make one, in the published list's shape and words (pending, in_progress, completed, failed,
// cancelled), newest first: pending, running, then ended prompts from the history.
import type { V1ExecutionError, V1JobEntry, V1Pagination } from '../../protocol/legacy.js';
import type { LegacyClient } from './client.js';
import { isRecord } from '../shared/response-check.js';
import { entryId, stateOfHistory } from './prompt-state.js';

/** An engine's list: `total` is not known without reading its whole history, so it is left out. */
export interface EngineJobList {
  jobs: Array<Omit<V1JobEntry, 'create_time'> & { create_time?: number }>;
  pagination: Omit<V1Pagination, 'total'>;
}

const LIST_STATUS: Record<string, string> = { success: 'completed', cancelled: 'cancelled', error: 'failed' };

function timestamps(messages: unknown): { start?: number; end?: number } {
  if (!Array.isArray(messages)) return {};
  const times = messages.map((m) => (Array.isArray(m) && isRecord(m[1]) && typeof m[1].timestamp === 'number' ? m[1].timestamp : null)).filter((t): t is number => t !== null);
  return times.length ? { start: times[0], end: times[times.length - 1] } : {};
}

function executionError(messages: unknown): V1ExecutionError | undefined {
  if (!Array.isArray(messages)) return undefined;
  const found = messages.find((m) => Array.isArray(m) && m[0] === 'execution_error' && isRecord(m[1]));
  return found ? (found[1] as V1ExecutionError) : undefined;
}

function historyRow(id: string, entry: unknown): EngineJobList['jobs'][number] {
  const record = isRecord(entry) ? entry : {};
  const state = stateOfHistory(record);
  const messages = isRecord(record.status) ? record.status.messages : undefined;
  const { start, end } = timestamps(messages);
  const error = state.status === 'error' ? executionError(messages) : undefined;
  return {
    id,
    status: LIST_STATUS[state.status] ?? 'failed',
    outputs_count: state.outputs.length,
    ...(start !== undefined ? { execution_start_time: start } : {}),
    ...(end !== undefined ? { execution_end_time: end } : {}),
    ...(error ? { execution_error: error } : {}),
  };
}

export async function listEngineJobs(client: LegacyClient, query: { statuses?: string[]; offset: number; limit: number }): Promise<EngineJobList> {
  const queue = await client.queue();
  const queued = [
    ...[...queue.queue_pending].reverse().map((e) => ({ id: entryId(e), status: 'pending' })),
    ...queue.queue_running.map((e) => ({ id: entryId(e), status: 'in_progress' })),
  ].filter((row): row is { id: string; status: string } => row.id !== null);
  const wanted = (status: string) => !query.statuses || query.statuses.includes(status);
  // With a status filter every ended prompt may count; without one, the newest that fill the page (and one to tell there are more).
  const history = await client.allHistory(query.statuses ? undefined : Math.max(0, query.offset + query.limit + 1 - queued.length));
  const ended = Object.entries(history).reverse().map(([id, entry]) => historyRow(id, entry));
  const all = [...queued, ...ended].filter((row) => wanted(row.status));
  const page = all.slice(query.offset, query.offset + query.limit);
  return { jobs: page, pagination: { offset: query.offset, limit: query.limit, has_more: all.length > query.offset + query.limit } };
}
