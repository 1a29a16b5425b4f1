// The verdict on a lost submit's key that a search did not find (issue 43): proven absent only by
// a list that reaches back before the send in the server's clock, or that is provably the whole
// list: a short, untruncated self-hosted page; the last page of a serverless cursor walk. A full
// page of newer jobs proves nothing. One row per case and deployment.
import { describe, expect, it } from 'vitest';
import { absenceVerdict, NO_CLOCK_MARGIN_MS, SKEW_MARGIN_MS, type ListWalk, type SearchClock } from '../../src/clients/jobs/list-dialect.js';

const SENT = Date.parse('2026-11-28T08:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const http = (ms: number) => new Date(ms).toUTCString();
/** `n` dates, every one `fromMs` after the send and newer still. */
const newer = (n: number, fromMs = 1000) => Array.from({ length: n }, (_, i) => iso(SENT + fromMs + (n - i) * 10));
/** A list read 2 s after the send, the server's clock in step (its Date header says so). */
const inStep: SearchClock = { sentAt: SENT, askedAt: SENT + 2000, answeredAt: SENT + 2050, serverDate: http(SENT + 2000) };

interface Row {
  name: string;
  walk: ListWalk;
  clock?: SearchClock;
  proven: boolean;
  by?: 'whole-list' | 'reaches-back';
}

const page = (over: Partial<ListWalk> & { createdAt: (string | undefined)[] }): ListWalk => ({ dialect: 'truncated', asked: 100, count: over.createdAt.length, truncated: false, ...over });

const rows: Row[] = [
  // self-hosted proxy: `{jobs, truncated}`, one page
  { name: 'self-hosted: a full page of jobs newer than the send, truncated false (the issue\'s case)', walk: page({ createdAt: newer(100) }), proven: false },
  { name: 'self-hosted: a short page, not truncated, is the whole list', walk: page({ createdAt: newer(40) }), proven: true, by: 'whole-list' },
  { name: 'self-hosted: an empty list, not truncated', walk: page({ createdAt: [] }), proven: true, by: 'whole-list' },
  { name: 'self-hosted: an empty list stopped by the scan cap (truncated)', walk: page({ createdAt: [], truncated: true }), proven: false },
  { name: 'self-hosted: a short page that is truncated', walk: page({ createdAt: newer(3), truncated: true }), proven: false },
  { name: 'self-hosted: a full page reaching back a minute before the send', walk: page({ createdAt: [...newer(99), iso(SENT - 60_000)] }), proven: true, by: 'reaches-back' },
  { name: 'self-hosted: a full page whose oldest job is within the margin of the send', walk: page({ createdAt: [...newer(99), iso(SENT - SKEW_MARGIN_MS + 1000)] }), proven: false },
  { name: 'self-hosted: a full page without dates', walk: page({ createdAt: Array.from({ length: 100 }, () => undefined) }), proven: false },
  { name: 'self-hosted: a full page with unreadable dates', walk: page({ createdAt: Array.from({ length: 100 }, () => 'yesterday') }), proven: false },
  {
    name: 'self-hosted: no send time known (jobs find --key): a full page reaching far back proves nothing',
    walk: page({ createdAt: [...newer(99), iso(SENT - 3_600_000)] }),
    clock: { askedAt: SENT, answeredAt: SENT + 10 },
    proven: false,
  },
  // clock skew: the server's Date header moves the send into its clock
  {
    name: 'skew: server an hour behind; its oldest job reads 30 min before the send here, but is after it there',
    walk: page({ createdAt: [...newer(99, -3_600_000 + 5000), iso(SENT - 1_800_000)] }),
    clock: { ...inStep, serverDate: http(SENT + 2000 - 3_600_000) },
    proven: false,
  },
  {
    name: 'skew: server an hour ahead; its oldest job reads after the send here, but is a minute before it there',
    walk: page({ createdAt: [...newer(99, 3_600_000), iso(SENT + 3_600_000 - 60_000)] }),
    clock: { ...inStep, serverDate: http(SENT + 2000 + 3_600_000) },
    proven: true,
    by: 'reaches-back',
  },
  {
    name: 'skew: no Date header: a job 5 min before the send is within the 10 min margin',
    walk: page({ createdAt: [...newer(99), iso(SENT - 5 * 60_000)] }),
    clock: { ...inStep, serverDate: undefined },
    proven: false,
  },
  {
    name: 'skew: no Date header: a job beyond the 10 min margin reaches back',
    walk: page({ createdAt: [...newer(99), iso(SENT - NO_CLOCK_MARGIN_MS - 60_000)] }),
    clock: { ...inStep, serverDate: undefined },
    proven: true,
    by: 'reaches-back',
  },
  // serverless: cursor pages (filtered by the key's label)
  { name: 'serverless: the walk reached the page without next_cursor', walk: { dialect: 'cursor', asked: 100, count: 0, reachedEnd: true, createdAt: [] }, proven: true, by: 'whole-list' },
  { name: 'serverless: a full last page without next_cursor', walk: { dialect: 'cursor', asked: 100, count: 100, reachedEnd: true, createdAt: newer(250) }, proven: true, by: 'whole-list' },
  { name: 'serverless: the walk stopped with a next_cursor left, every job newer', walk: { dialect: 'cursor', asked: 100, count: 100, reachedEnd: false, createdAt: newer(2000) }, proven: false },
  { name: 'serverless: a short page that still has a next_cursor', walk: { dialect: 'cursor', asked: 100, count: 0, reachedEnd: false, createdAt: [] }, proven: false },
  // Comfy Cloud: no list
  { name: 'cloud: no list (501)', walk: { dialect: 'none', asked: 0, count: 0, createdAt: [] }, proven: false },
];

describe('absenceVerdict', () => {
  it.each(rows)('$name', ({ walk, clock, proven, by }) => {
    const verdict = absenceVerdict(walk, clock ?? inStep);
    expect(verdict.proven).toBe(proven);
    if (by) expect(verdict).toEqual({ proven: true, by });
  });
});
