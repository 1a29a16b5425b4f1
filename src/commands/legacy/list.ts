// wes legacy list [--status S,...] [--limit N] [--offset N]: the account's jobs, newest first, a
// page at a time: the cloud's GET /api/jobs as published (--json: its answer as sent); on a
// self-hosted engine, which has no such route, made from its queue and history (engine-jobs.ts).
import type { Factory } from '../../factory.js';
import { printTable, type Cell } from '../../render/table.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { listEngineJobs } from '../../clients/legacy/engine-jobs.js';
import type { V1JobEntry } from '../../protocol/legacy.js';
import { legacyClient } from '../../command-kit/legacy/shared.js';
import { InvalidArgumentError } from 'commander';
import { valueOption, wholeNumberIn, type OptionsDeclaration } from '../typed-options.js';
import { defineVerb } from '../verb.js';

const LIST_STATUSES = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const;

interface LegacyListOptions {
  status?: string;
  limit: number;
  offset: number;
}

/** `--status a,b`: statuses of the published job list, checked while the command line is read. */
function statusList(raw: string): string {
  const given = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = given.filter((s) => !(LIST_STATUSES as readonly string[]).includes(s));
  if (given.length === 0 || unknown.length > 0) throw new InvalidArgumentError(`${unknown.length ? `unknown status ${unknown.map((u) => JSON.stringify(u)).join(', ')}; ` : ''}give one or more of ${LIST_STATUSES.join(', ')}, comma-separated.`);
  return given.join(',');
}

const legacyListOptions = (): OptionsDeclaration<LegacyListOptions> => ({
  status: valueOption('--status <status,...>', `only jobs with these statuses: ${LIST_STATUSES.join(', ')}`, statusList),
  limit: valueOption('--limit <n>', 'at most N jobs (1-1000)', wholeNumberIn(1, 1000)).default(100),
  offset: valueOption('--offset <n>', 'skip the newest N (the next page starts where the last ended)', wholeNumberIn(0)).default(0),
});

type Row = Omit<V1JobEntry, 'create_time'> & { create_time?: number };

/** When it was created (seconds, the cloud), else when it started (milliseconds, an engine's history). */
function when(job: Row): string {
  const ms = typeof job.create_time === 'number' ? job.create_time * 1000 : job.execution_start_time;
  return typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z') : '';
}

function errorOf(job: Row): string {
  const error = job.execution_error;
  if (!error) return '';
  return `${error.exception_type ?? 'error'}${error.node_id ? ` in node ${error.node_id}` : ''}: ${error.exception_message ?? ''}`;
}

async function run(f: Factory, _args: unknown, opts: LegacyListOptions): Promise<number> {
  const session = await legacyClient(f, 'list');
  const query = { offset: opts.offset, limit: opts.limit };
  const list = session.engine
    ? await listEngineJobs(session.client, { ...query, statuses: opts.status?.split(',') })
    : await session.client.listJobs({ ...query, status: opts.status });
  if (f.io.json) {
    f.io.printJson(list);
    return 0;
  }
  const rows: Cell[][] = list.jobs.map((job: Row) => [job.id, sanitizeLine(job.status), when(job), typeof job.outputs_count === 'number' ? job.outputs_count : '', sanitizeLine(errorOf(job))]);
  printTable(f.io, ['id', 'status', session.engine ? 'started' : 'created', 'outputs', 'error'], rows, { keep: [0], wrap: [4] });
  const { offset, limit, has_more: more } = list.pagination;
  const total = 'total' in list.pagination ? ` of ${String(list.pagination.total)}` : '';
  f.io.info(`${list.jobs.length} job(s)${total}${more ? `; the next page: --offset ${offset + limit}` : ''}`);
  return 0;
}

export default defineVerb({
  path: ['legacy', 'list'],
  args: {},
  options: legacyListOptions(),
  help: { summary: 'List jobs, newest first, a page at a time (the cloud\'s job list; an engine\'s queue and history)', after: ['\nExamples:\n  $ wes legacy list\n  $ wes legacy list --status failed,cancelled --limit 20\n  $ wes legacy list --offset 100 --json'] },
  run,
});
