// wes jobs list --remote: the server's own job list as read (src/command-kit/jobs/remote-list.ts),
// shown as the server stored its items (id, status, times, labels) with whether it holds more;
// `jobs get` reads a job's outputs. A server without a list is said in one line and this
// machine's history is shown.
import type { Factory } from '../../factory.js';
import { userLabelText } from '../../clients/jobs/labels.js';
import type { RemoteList } from '../../command-kit/jobs/remote-list.js';
import { JOB_LIST_LIMIT_MAX, type JobLabels } from '../../protocol/jobs.js';
import { printTable } from '../../render/table.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { JobsListOptions } from './options.js';

/** The server's jobs as `jobs list --remote` shows them; false when the server has no list (the caller shows the local history). */
export function showRemoteJobs(f: Factory, list: RemoteList, opts: JobsListOptions, labels: JobLabels | undefined, limit: number, age: (ms: number) => string): boolean {
  if (list.kind === 'none') {
    f.io.notice(`this server keeps no job list (GET /api/v2/jobs answered ${list.status}); showing the jobs submitted from this machine instead`);
    return false;
  }
  const answer = list.walk;
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
