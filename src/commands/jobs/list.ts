// wes jobs list: the jobs submitted from this machine (profile and base URL), newest first, with
// their last known status; --refresh asks the service for the unfinished ones first.
import type { Factory } from '../../factory.js';
import { ApiError, UsageError } from '../../errors.js';
import type { HistoryEntry } from '../../config/history.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { settleExpired } from '../../clients/jobs/expired-race.js';
import { isTerminal, LIST_FILTERS_MAX } from '../../protocol/jobs.js';
import { printTable } from '../../render/table.js';
import { age } from '../../render/age.js';
import { jobHistory } from '../../features/jobs/history.js';
import { historyElsewhere } from '../../features/jobs/history-elsewhere.js';
import { flag, choice, valueOption, wholeNumberIn, type OptionsDeclaration } from '../typed-options.js';
import { GONE, LISTED_STATUSES, type JobsListOptions } from './options.js';
import { defineVerb } from '../verb.js';
import { labelMap, labelOption } from './label-option.js';

const jobsListOptions = (): OptionsDeclaration<JobsListOptions> => ({
  remote: flag('--remote', 'list the server\'s own jobs (GET /api/v2/jobs, where the server has a list) instead of this machine\'s history').conflicts('refresh'),
  refresh: flag('--refresh', 'ask the service for the current status of the unfinished ones first'),
  status: choice('--status <status>', 'only jobs with this status', LISTED_STATUSES),
  limit: valueOption('--limit <n>', 'at most N jobs (default 20)', wholeNumberIn(1, 10_000)),
  label: labelOption('with --remote: only jobs carrying this label (key=value, repeatable, up to 3; the server filters)'),
});

const REFRESH_CONCURRENCY = 4;
const DEFAULT_LIMIT = 20;
/** Narrower than this, whole ids (36 characters) leave no room for the other columns. */
const NARROW = 72;

async function run(f: Factory, _args: unknown, opts: JobsListOptions): Promise<number> {
  const limit = opts.limit ?? DEFAULT_LIMIT;
  if (opts.remote) {
    if (opts.status === GONE) throw new UsageError(`--status ${GONE} is a status of this machine's history only`, 'drop --remote to list the history');
    const labels = labelMap(opts.label, LIST_FILTERS_MAX);
    const list = await (await import('../../command-kit/jobs/remote-list.js')).readRemoteJobs(f, { status: opts.status, labels }, limit);
    if ((await import('./remote-list-view.js')).showRemoteJobs(f, list, opts, labels, limit, age)) return 0;
  }
  const status = opts.status;
  const history = jobHistory(f);
  if (opts.refresh) await refresh(f, history.entries().filter((e) => !isTerminal(e.status) && e.status !== GONE));
  const { entries: shown, total } = history.newest(limit, status === undefined ? undefined : (e) => e.status === status);
  if (f.io.json) {
    f.io.printJson(shown);
    return 0;
  }
  if (shown.length === 0) {
    const s = f.settings();
    f.io.info(`no jobs${status ? ` with status ${status}` : ''} in the history of profile ${s.profile} at ${s.baseUrl}`);
    if (history.size() === 0) {
      for (const other of historyElsewhere(f, f.globals).slice(0, 3)) {
        f.io.info(`profile ${other.profile} holds ${other.jobs} job(s) at ${other.baseUrl}: wes --profile ${other.profile} jobs list`);
      }
    }
    return 0;
  }
  const now = f.clock.now();
  // A terminal too narrow for whole ids gets their first 8 characters, which pick the job as well.
  const narrow = f.io.stdoutIsTTY && f.io.columns < NARROW;
  printTable(
    f.io,
    ['id', 'status', 'submitted', 'source'],
    shown.map((e) => [narrow ? e.id.slice(0, 8) : e.id, e.status, f.io.stdoutIsTTY ? age(now - Date.parse(e.submitted_at)) : e.submitted_at, e.source]),
    { keep: [0] },
  );
  if (total > shown.length) f.io.info(`(the newest ${shown.length} of ${total}; --limit ${total} shows them all)`);
  if (!opts.refresh && shown.some((e) => !isTerminal(e.status) && e.status !== GONE)) f.io.info('(statuses as last seen; --refresh asks the service about the unfinished ones)');
  return 0;
}

async function refresh(f: Factory, unfinished: HistoryEntry[]): Promise<void> {
  const client = f.client(JobsClient);
  const history = jobHistory(f);
  const queue = [...unfinished];
  const worker = async () => {
    for (let e = queue.shift(); e; e = queue.shift()) {
      try {
        const first = await client.get(e.id);
        const { job } = await settleExpired(first, () => client.refresh(first), f.signal, f.clock);
        history.recordStatus(job.id, job.status);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) history.recordStatus(e.id, GONE);
        else throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(REFRESH_CONCURRENCY, queue.length) }, worker));
}

export default defineVerb({
  path: ['jobs', 'list'],
  args: {},
  options: jobsListOptions(),
  help: {
    summary: 'List the jobs submitted from this machine (this profile and base URL), newest first, with their last known status',
    after: [
      `
The history lives in the state folder (WES_STATE_DIR; else state/ in WES_CONFIG_DIR when that is
set; else $XDG_STATE_HOME/wes); every \`wes jobs submit\` adds to it. Job commands take @last (or
@N, the N-th latest) for an id. --remote lists the server's own jobs instead (GET /api/v2/jobs,
where the server keeps a list).

Examples:
  $ wes jobs list --refresh
  $ wes jobs list --status failed --limit 5
  $ wes jobs list --remote --limit 20
Then: wes jobs watch @last, wes jobs download @2 out/`,
    ],
  },
  run,
});
