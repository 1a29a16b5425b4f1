// GET /api/v2/jobs on a serverless deployment: its stored records, newest first, a page at a time
// (`limit` 1..100, default 50; `cursor`), filtered by up to three labels (`metadata[k]=v`, all
// must match exactly). The answer is `{jobs, next_cursor}`, `next_cursor` absent on the last page;
// each job appears once across pages. A page scans at most SCAN_PER_PAGE records past its cursor,
// so a filtered page may be empty while more follow. Items are stored records: no outputs, no urls.
import type { EngineJob, RequestContext } from '../contract.js';
import { sendJson, sendJobsError } from '../http-kit.js';
import { JOB_LIST_LIMIT_DEFAULT, JOB_LIST_LIMIT_MAX, LIST_FILTERS_MAX, type JobRecord, type JobRecordPage } from '../../protocol/jobs.js';
import { servedHere } from './jobs-routes.js';
import { filterProblem } from './dialect.js';

const SCAN_PER_PAGE = 100;

interface Query {
  limit: number;
  cursor?: string;
  filters: Map<string, string>;
}

class BadQuery extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

function decode(raw: string): string {
  return decodeURIComponent(raw.replace(/\+/g, ' '));
}

/** Reads the raw query: a raw `;` or a bad `%` escape in a filter, a repeated or fourth filter, is refused. */
function readQuery(search: string): Query {
  const query: Query = { limit: JOB_LIST_LIMIT_DEFAULT, filters: new Map() };
  for (const part of search.replace(/^\?/, '').split('&').filter((p) => p !== '')) {
    const at = part.indexOf('=');
    const [rawName, rawValue] = at < 0 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)];
    let name: string;
    let value: string;
    try {
      name = decode(rawName);
      value = decode(rawValue);
    } catch {
      throw new BadQuery(rawName.startsWith('metadata') ? 'invalid_metadata_filter' : 'invalid_request', 'the query has a malformed % escape.');
    }
    const filter = /^metadata\[(.*)\]$/.exec(name);
    if (filter) {
      const key = filter[1]!;
      if (part.includes(';') || filterProblem(key, value)) throw new BadQuery('invalid_metadata_filter', `the metadata filter '${key.slice(0, 60)}' is not valid.`);
      if (query.filters.has(key)) throw new BadQuery('invalid_metadata_filter', `the metadata filter '${key}' is given twice.`);
      query.filters.set(key, value);
      if (query.filters.size > LIST_FILTERS_MAX) throw new BadQuery('invalid_metadata_filter', `at most ${LIST_FILTERS_MAX} metadata filters are allowed.`);
    } else if (name === 'limit') {
      const limit = /^\d+$/.test(value) ? Number(value) : NaN;
      if (!(limit >= 1 && limit <= JOB_LIST_LIMIT_MAX)) throw new BadQuery('invalid_request', `'limit' must be an integer from 1 to ${JOB_LIST_LIMIT_MAX}.`);
      query.limit = limit;
    } else if (name === 'cursor') query.cursor = value;
  }
  return query;
}

function cursorOf(id: string): string {
  return Buffer.from(JSON.stringify({ after: id })).toString('base64url');
}

/** The id a cursor continues after; undefined when it is not one this server made. */
function afterOf(cursor: string): string | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { after?: unknown };
    return typeof parsed.after === 'string' ? parsed.after : undefined;
  } catch {
    return undefined;
  }
}

/** Times with nanoseconds, as the published list writes them. */
function nanoTime(iso: string | null | undefined, fallback: string): string {
  return (iso ?? fallback).replace(/\.(\d{3})Z$/, (_m, ms: string) => `.${ms}000000Z`);
}

function recordOf(job: EngineJob): JobRecord {
  return {
    id: job.id,
    status: job.status,
    create_time: nanoTime(job.created_at, job.created_at),
    update_time: nanoTime(job.completed_at ?? job.started_at, job.created_at),
    ...(job.deployment_id !== undefined ? { deployment_id: job.deployment_id } : {}),
    ...(typeof job.metadata === 'object' ? { metadata: job.metadata } : {}),
  };
}

export function listRecords(ctx: RequestContext): void {
  let query: Query;
  try {
    query = readQuery(ctx.url.search);
  } catch (err) {
    if (err instanceof BadQuery) return sendJobsError(ctx, 400, err.code, err.message);
    throw err;
  }
  const records = ctx.state.engine.list().filter((job) => job.via === 'v2' && servedHere(ctx, job)).reverse();
  let start = 0;
  if (query.cursor !== undefined) {
    const after = afterOf(query.cursor);
    const at = after === undefined ? -1 : records.findIndex((job) => job.id === after);
    if (at < 0) return sendJobsError(ctx, 400, 'invalid_cursor', 'the cursor is not valid (it may have expired).');
    start = at + 1;
  }
  const matches = (job: EngineJob) => [...query.filters].every(([k, v]) => typeof job.metadata === 'object' && job.metadata[k] === v);
  const jobs: JobRecord[] = [];
  let at = start;
  for (; at < records.length && at - start < SCAN_PER_PAGE && jobs.length < query.limit; at++) {
    if (matches(records[at]!)) jobs.push(recordOf(records[at]!));
  }
  const more = records.slice(at).some(matches);
  const page: JobRecordPage = { jobs, ...(more && at > 0 ? { next_cursor: cursorOf(records[at - 1]!.id) } : {}) };
  sendJson(ctx, 200, page);
}
