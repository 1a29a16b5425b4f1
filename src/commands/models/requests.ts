// wes models requests: the model requests queued from this machine (profile and router URL),
// newest first, with their last known state; --refresh asks the router about the unfinished ones.
import type { Factory } from '../../factory.js';
import { ApiError } from '../../errors.js';
import type { HistoryEntry } from '../../config/history.js';
import { printTable } from '../../render/table.js';
import { parseModelId } from '../../protocol/model-ids.js';
import { GONE, historyStatus, isFinished } from '../../clients/models/request-history.js';
import { age } from '../jobs/list.js';
import { modelArg, modelsClient } from './context.js';
import { historyOf } from './requests-context.js';
import type { ModelsRequestsOptions } from './options.js';

const DEFAULT_LIMIT = 20;

async function refresh(f: Factory, unfinished: HistoryEntry[]): Promise<void> {
  const client = modelsClient(f);
  const history = historyOf(f);
  for (const entry of unfinished) {
    try {
      const read = await client.requests.status(parseModelId(entry.source), entry.id);
      history.recordStatus(entry.id, historyStatus(read.value));
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 410)) history.recordStatus(entry.id, GONE);
      else throw err;
    }
  }
}

export async function run(f: Factory, _args: string[], opts: ModelsRequestsOptions): Promise<number> {
  const model = opts.model === undefined ? undefined : modelArg(opts.model).id;
  const history = historyOf(f);
  const mine = (e: HistoryEntry) => model === undefined || e.source === model;
  if (opts.refresh) await refresh(f, history.entries().filter((e) => mine(e) && !isFinished(e)));
  const shown = history.entries().filter(mine).slice(0, opts.limit ?? DEFAULT_LIMIT);
  if (f.io.json) {
    f.io.printJson(shown.map((e) => ({ request_id: e.id, model: e.source, status: e.status, submitted_at: e.submitted_at, seen_at: e.seen_at })));
    return 0;
  }
  if (shown.length === 0) {
    const s = f.settings();
    f.io.info(`no model requests${model ? ` of ${model}` : ''} queued from here for profile ${s.profile} at ${s.routerUrl}`);
    return 0;
  }
  const now = Date.now();
  printTable(f.io, ['request', 'model', 'status', 'submitted'], shown.map((e) => [e.id, e.source, e.status, f.io.stdoutIsTTY ? age(now - Date.parse(e.submitted_at)) : e.submitted_at]), { keep: [0] });
  if (!opts.refresh && shown.some((e) => !isFinished(e))) f.io.info('(states as last seen; --refresh asks the router about the unfinished ones)');
  return 0;
}
