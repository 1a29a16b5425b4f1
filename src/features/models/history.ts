// The queued requests of this machine (profile and router URL) as the models use cases record
// them: a submitted request with the URLs it was given (later reads go there, from any process),
// and each state seen of one already there. Best effort: a history that cannot be written never
// fails the command (--verbose says why).
import type { JobHistory } from '../../config/history.js';
import { historyStatus, requestHistory } from '../../clients/models/request-history.js';
import type { ModelRef } from '../../protocol/model-ids.js';
import type { RouterQueueStatusResponse } from '../../protocol/models.js';
import type { FeatureContext } from '../context.js';
import type { Reporter } from '../reporter.js';

/** Where the history is: the state folder, the profile and router URL of the command's settings. */
export type RequestHistoryPlace = Pick<FeatureContext, 'env' | 'settings'>;

export function requestHistoryOf(f: RequestHistoryPlace): JobHistory {
  const s = f.settings();
  return requestHistory(f.env, s.profile, s.routerUrl);
}

function quietly(reporter: Reporter, what: () => void): void {
  try {
    what();
  } catch (err) {
    reporter.notice('debug', `request history not updated: ${(err as Error).message}`);
  }
}

/** A submitted request, with the URLs it was given. */
export function recordQueued(f: RequestHistoryPlace, ref: ModelRef, state: RouterQueueStatusResponse, reporter: Reporter): void {
  const links = { status_url: state.status_url, response_url: state.response_url, cancel_url: state.cancel_url };
  quietly(reporter, () => requestHistoryOf(f).recordSubmitted(state.request_id, historyStatus(state), ref.id, new Date(), links));
}

/** A state seen for a request in the history (others are not added). */
export function recordState(f: RequestHistoryPlace, requestId: string, status: string, reporter: Reporter): void {
  quietly(reporter, () => requestHistoryOf(f).recordStatus(requestId, status));
}
