// The local history of queued model requests behind the `models requests` command: one file per profile and
// router URL beside the job history, in the same append-only form (config/history.ts). Each entry's
// `source` is the model id, which every later call needs with the request id; its status is the
// router's (IN_QUEUE, IN_PROGRESS, COMPLETED), or for a request that ended without a result the
// bucket it ended with (cancelled, provider_error, ...).
import { JobHistory, stateDir, type HistoryEntry } from '../../config/history.js';
import type { RouterQueueStatusResponse } from '../../protocol/models.js';

export const GONE = 'gone';

export function requestHistory(env: NodeJS.ProcessEnv, profile: string, routerUrl: string): JobHistory {
  return new JobHistory(stateDir(env), profile, routerUrl, undefined, 'model-requests');
}

/** The status kept for a state the router reported. */
export function historyStatus(state: Pick<RouterQueueStatusResponse, 'status' | 'error_type'>): string {
  return state.status === 'COMPLETED' && state.error_type ? state.error_type : state.status;
}

/** Whether the router will say nothing new about it: completed, ended with a bucket (lowercase), or gone. */
export function isFinished(entry: HistoryEntry): boolean {
  return entry.status === 'COMPLETED' || /^[a-z_]+$/.test(entry.status);
}
