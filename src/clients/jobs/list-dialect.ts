// What each deployment's job list can prove, in one place. A submit whose answer was lost is
// looked for in the list; when its label is not there, the list proves that no job was made only
// if it provably covers the send. The deployments' lists differ (observations/job-api-v2-*.md):
// - self-hosted proxy: `{jobs, truncated}`, one page, no filter. `truncated` is true only when the
//   server's 500-record scan stopped before `limit` was filled; a full page says nothing about
//   older jobs, so only a short, untruncated page is the whole list.
// - serverless: `{jobs, next_cursor}`, label filters; the page without `next_cursor` is the last,
//   so a walk to it has seen every job (every job carrying the key's label, when filtered by it).
// - Comfy Cloud: no list (501): nothing can be proven.
// Any list also proves absence when its oldest job was made before the send, by the server's clock.
import type { ListDialect } from './deployment.js';

/** What one search read: the last page, and what the walk up to it saw. */
export interface ListWalk {
  dialect: ListDialect;
  /** The page size asked for (the self-hosted `limit`). */
  asked: number;
  /** Items on the last page read. */
  count: number;
  /** The self-hosted page's `truncated`. */
  truncated?: boolean;
  /** Cursor pages: the walk reached the page without `next_cursor`. */
  reachedEnd?: boolean;
  /** `created_at` (or `create_time`) of every item read; undefined where an item had none. */
  createdAt: (string | undefined)[];
}

/** The send and the list read, in this machine's clock, and the server's Date header. */
export interface SearchClock {
  /** When the key was first sent (ms since the epoch); unknown for a key given later (`jobs find`). */
  sentAt?: number;
  /** When the list was asked for, and when its answer came. */
  askedAt: number;
  answeredAt: number;
  /** The list answer's `Date` header. */
  serverDate?: string;
}

/**
 * How much earlier than the send (in the server's clock) the oldest listed job must have been made
 * for the list to cover the send: the Date header has whole seconds, plus the time of the exchange;
 * without one, clocks may disagree by minutes.
 */
export const SKEW_MARGIN_MS = 5_000;
export const NO_CLOCK_MARGIN_MS = 10 * 60 * 1000;

export type AbsenceVerdict = { proven: true; by: 'whole-list' | 'reaches-back' } | { proven: false };

/** Whether a search that did not find the key's label proves that the server made no job with it. */
export function absenceVerdict(walk: ListWalk, clock: SearchClock): AbsenceVerdict {
  if (walk.dialect === 'none') return { proven: false };
  if (wholeList(walk)) return { proven: true, by: 'whole-list' };
  if (reachesBack(walk.createdAt, clock)) return { proven: true, by: 'reaches-back' };
  return { proven: false };
}

function wholeList(walk: ListWalk): boolean {
  if (walk.dialect === 'cursor') return walk.reachedEnd === true;
  return walk.truncated === false && walk.count < walk.asked;
}

/** Whether the oldest job read was made before the send (in the server's clock) by more than the margin. */
function reachesBack(createdAt: (string | undefined)[], clock: SearchClock): boolean {
  if (clock.sentAt === undefined) return false;
  const serverNow = Date.parse(clock.serverDate ?? '');
  const known = Number.isFinite(serverNow);
  // The server's Date was written between the ask and the answer: the send, moved into its clock.
  const sentAt = known ? clock.sentAt + (serverNow - clock.askedAt) : clock.sentAt;
  const margin = known ? SKEW_MARGIN_MS + (clock.answeredAt - clock.askedAt) : NO_CLOCK_MARGIN_MS;
  const times = createdAt.map((t) => Date.parse(t ?? '')).filter(Number.isFinite);
  if (times.length === 0) return false;
  return Math.min(...times) < sentAt - margin;
}
