// wes jobs list --remote: the server's own job list (`GET /api/v2/jobs`, newest first), where the
// server has one; a server without it is said in one line and this machine's history is shown.
import type { Factory } from '../../factory.js';
import { ApiError, UsageError } from '../../errors.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { KEY_LABEL_PREFIX } from '../../clients/jobs/label.js';
import { JOB_LIST_LIMIT_MAX, type Job } from '../../protocol/jobs.js';
import { printTable } from '../../render/table.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { GONE, type JobsListOptions } from './options.js';

/** The user's own part of a job's label (wes's key token left out). */
function userLabel(job: Job): string {
  if (typeof job.metadata !== 'string') return '';
  const at = job.metadata.lastIndexOf(KEY_LABEL_PREFIX);
  return (at < 0 ? job.metadata : job.metadata.slice(0, at)).trim();
}

/** Lists the server's jobs; false when the server has no list (the caller shows the local history). */
export async function listRemote(f: Factory, opts: JobsListOptions, limit: number, age: (ms: number) => string): Promise<boolean> {
  if (opts.status === GONE) throw new UsageError(`--status ${GONE} is a status of this machine's history only`, 'drop --remote to list the history');
  let answer;
  try {
    answer = await f.client(JobsClient).list({ status: opts.status, limit: Math.min(limit, JOB_LIST_LIMIT_MAX) });
  } catch (err) {
    if (!(err instanceof ApiError) || err.origin !== 'jobs' || ![404, 405, 501].includes(err.status ?? 0)) throw err;
    f.io.notice(`this server keeps no job list (GET /api/v2/jobs answered ${err.status}); showing the jobs submitted from this machine instead`);
    return false;
  }
  const { list } = answer;
  if (f.io.json) {
    f.io.printJson(list);
    return true;
  }
  if (limit > JOB_LIST_LIMIT_MAX) f.io.info(`the server lists at most ${JOB_LIST_LIMIT_MAX} jobs at a time`);
  if (list.jobs.length === 0) {
    f.io.info(`no jobs${opts.status ? ` with status ${opts.status}` : ''} on the server`);
    return true;
  }
  const now = f.clock.now();
  printTable(
    f.io,
    ['id', 'status', 'created', 'outputs', 'label'],
    list.jobs.map((j) => [j.id, j.status, f.io.stdoutIsTTY ? age(now - Date.parse(j.created_at)) : j.created_at, String(j.outputs.length), sanitizeLine(userLabel(j))]),
    { keep: [0] },
  );
  if (list.truncated) f.io.info('(the server holds more jobs than these; --limit and --status choose which)');
  return true;
}
