// wes jobs list --remote: the server's own job list (`GET /api/v2/jobs`, newest first), where the
// server has one: the self-hosted proxy's one page, or a serverless deployment's pages walked by
// `next_cursor` to the end or to --limit, filtered there by --label (up to three). Items are shown
// as the server stored them (id, status, times, labels); `jobs get` reads a job's outputs. A server
// without a list is said in one line and this machine's history is shown.
import type { Factory } from '../../factory.js';
import { ApiError, UsageError } from '../../errors.js';
import { JobsClient, type ListRead } from '../../clients/jobs/client.js';
import { userLabelText } from '../../clients/jobs/labels.js';
import { walkJobList } from '../../clients/jobs/list-walk.js';
import { JOB_LIST_LIMIT_MAX, LIST_FILTERS_MAX, type JobLabels } from '../../protocol/jobs.js';
import { printTable } from '../../render/table.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { GONE, type JobsListOptions } from './options.js';
import { labelMap } from './label-option.js';

/** Lists the server's jobs; false when the server has no list (the caller shows the local history). */
export async function listRemote(f: Factory, opts: JobsListOptions, limit: number, age: (ms: number) => string): Promise<boolean> {
  if (opts.status === GONE) throw new UsageError(`--status ${GONE} is a status of this machine's history only`, 'drop --remote to list the history');
  const labels = labelMap(opts.label, LIST_FILTERS_MAX);
  let answer;
  try {
    answer = await walkJobList(f.client(JobsClient), { status: opts.status, labels }, limit);
  } catch (err) {
    if (!(err instanceof ApiError) || err.origin !== 'jobs' || ![404, 405, 501].includes(err.status ?? 0)) throw err;
    if (labels) throw err;
    f.io.notice(`this server keeps no job list (GET /api/v2/jobs answered ${err.status}); showing the jobs submitted from this machine instead`);
    return false;
  }
  const { reads, items } = answer;
  const last = reads[reads.length - 1]!.page;
  const more = last.dialect === 'cursor' ? last.nextCursor !== undefined : last.truncated === true || items.length >= limit;
  if (labels && last.dialect === 'truncated') f.io.notice('this server does not filter its list by label (the self-hosted proxy ignores --label): every job is shown');
  if (f.io.json) {
    const jobs = items.map((j) => j.raw);
    f.io.printJson(last.dialect === 'cursor' ? { jobs, ...(last.nextCursor !== undefined ? { next_cursor: last.nextCursor } : {}) } : { jobs, truncated: last.truncated === true });
    return true;
  }
  if (last.dialect === 'truncated' && limit > JOB_LIST_LIMIT_MAX) f.io.info(`the server lists at most ${JOB_LIST_LIMIT_MAX} jobs at a time`);
  if (items.length === 0) {
    f.io.info(`no jobs${opts.status ? ` with status ${opts.status}` : ''}${labels ? ' with those labels' : ''} on the server`);
    return true;
  }
  const now = f.clock.now();
  const when = (t: string | undefined) => (t === undefined ? '' : f.io.stdoutIsTTY && Number.isFinite(Date.parse(t)) ? age(now - Date.parse(t)) : sanitizeLine(t));
  printTable(
    f.io,
    ['id', 'status', 'created', 'updated', 'labels'],
    items.map((j) => [j.id, sanitizeLine(j.status), when(j.createdAt), when(j.updatedAt), sanitizeLine(userLabelText(j.labels))]),
    { keep: [0] },
  );
  if (more && last.unsaid && items.length < limit) f.io.info('(the server may hold more jobs than these: its list does not say whether it is whole)');
  else if (more) f.io.info('(the server holds more jobs than these; --limit and --status choose which)');
  f.io.info('(outputs: wes jobs get ID)');
  return true;
}
