// GET /api/v2/jobs?status=&limit=: the reference self-hosted server's job list (newest first,
// limit 1..100, default 50; `{jobs, truncated}`), each Job with its `metadata`. Served where the
// `jobList` option says (default: self-hosted only); elsewhere the path is a routing 404.
// `truncated` is the reference server's own (recordings/v2-proxy-edges.json): it scans at most 500
// records, newest first, and says `true` only when that cap stopped it before `limit` was filled;
// a full page says `false` however many older jobs there are.
import type { RequestContext } from '../contract.js';
import { sendJson, sendJobsError } from '../http-kit.js';
import { JOB_LIST_LIMIT_DEFAULT, JOB_LIST_LIMIT_MAX, type JobList, type JobStatus } from '../../protocol/jobs.js';
import { servedHere } from './jobs-routes.js';
import { listDialect } from './dialect.js';
import { listRecords } from './records.js';
import { jobJson } from './view.js';

/** Records one list request scans at most (the reference server's cap). */
const SCAN_CAP = 500;

const STATUSES: readonly JobStatus[] = ['queued', 'running', 'succeeded', 'canceling', 'canceled', 'failed', 'expired'];

export function listJobs(ctx: RequestContext): void {
  const dialect = listDialect(ctx);
  if (dialect === 'not-implemented') return sendJobsError(ctx, 501, 'not_implemented', 'listing jobs is not implemented on this deployment.');
  if (dialect === 'cursor') return listRecords(ctx);
  listProxyJobs(ctx);
}

/** Python's `int()` of a query value: surrounding blanks, a sign and `_` between digits are taken. */
function pythonInt(raw: string): number | null {
  return /^\s*[+-]?\d+(_\d+)*\s*$/.test(raw) ? Number(raw.trim().replace(/_/g, '')) : null;
}

/** The reference server's checks, in its order and words: `limit` first, then the status filter (comma-separated). */
function listQueryProblem(rawLimit: string | null, statusQuery: string | null): { problem: string } | { limit: number; statuses: Set<string> | null } {
  const limit = rawLimit === null ? JOB_LIST_LIMIT_DEFAULT : pythonInt(rawLimit);
  if (limit === null) return { problem: "'limit' must be an integer." };
  if (limit < 1 || limit > JOB_LIST_LIMIT_MAX) return { problem: `'limit' must be between 1 and ${JOB_LIST_LIMIT_MAX}.` };
  const wanted = (statusQuery ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (wanted.length === 0) return { limit, statuses: null };
  const unknown = [...new Set(wanted.filter((s) => !STATUSES.includes(s as JobStatus)))].sort();
  if (unknown.length > 0) return { problem: `Unknown status filter value(s): ${unknown.join(', ')}.` };
  return { limit, statuses: new Set(wanted) };
}

function listProxyJobs(ctx: RequestContext): void {
  const query = listQueryProblem(ctx.url.searchParams.get('limit'), ctx.url.searchParams.get('status'));
  if ('problem' in query) return sendJobsError(ctx, 400, 'invalid_request', query.problem);
  const { limit, statuses } = query;
  const records = ctx.state.engine
    .list()
    .filter((job) => job.via === 'v2' && servedHere(ctx, job))
    .reverse();
  const jobs: typeof records = [];
  let scanned = 0;
  for (const job of records) {
    if (jobs.length >= limit || scanned >= SCAN_CAP) break;
    scanned++;
    if (statuses === null || statuses.has(job.status)) jobs.push(job);
  }
  const answer: JobList = { jobs: jobs.map((job) => jobJson(ctx, job)) as unknown as JobList['jobs'], truncated: jobs.length < limit && scanned < records.length };
  sendJson(ctx, 200, answer);
}
