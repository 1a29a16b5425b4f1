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

function listProxyJobs(ctx: RequestContext): void {
  const status = ctx.url.searchParams.get('status');
  const rawLimit = ctx.url.searchParams.get('limit');
  if (status !== null && !STATUSES.includes(status as JobStatus)) {
    return sendJobsError(ctx, 400, 'invalid_request', `'status' must be one of ${STATUSES.join(', ')}.`);
  }
  const limit = rawLimit === null ? JOB_LIST_LIMIT_DEFAULT : /^\d+$/.test(rawLimit) ? Number(rawLimit) : NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > JOB_LIST_LIMIT_MAX) {
    return sendJobsError(ctx, 400, 'invalid_request', `'limit' must be an integer from 1 to ${JOB_LIST_LIMIT_MAX}.`);
  }
  const records = ctx.state.engine
    .list()
    .filter((job) => job.via === 'v2' && servedHere(ctx, job))
    .reverse();
  const jobs: typeof records = [];
  let scanned = 0;
  for (const job of records) {
    if (jobs.length >= limit || scanned >= SCAN_CAP) break;
    scanned++;
    if (status === null || job.status === status) jobs.push(job);
  }
  const answer: JobList = { jobs: jobs.map((job) => jobJson(ctx, job)) as unknown as JobList['jobs'], truncated: jobs.length < limit && scanned < records.length };
  sendJson(ctx, 200, answer);
}
