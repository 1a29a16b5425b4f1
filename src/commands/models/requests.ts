// wes models requests: the model requests queued from this machine (profile and router URL),
// newest first, with their last known state; --refresh asks the router about the unfinished ones.
import type { Factory } from '../../factory.js';
import { ApiError } from '../../errors.js';
import type { HistoryEntry } from '../../config/history.js';
import { printTable } from '../../render/table.js';
import { parseModelId } from '../../protocol/model-ids.js';
import { GONE, historyStatus, isFinished } from '../../clients/models/request-history.js';
import { age } from '../../render/age.js';
import { modelArg, modelsClient } from '../../command-kit/models/context.js';
import { historyOf } from '../../command-kit/models/requests-context.js';
import { flag, nonEmpty, valueOption, wholeNumberIn, type OptionsDeclaration } from '../typed-options.js';
import { defineVerb } from '../verb.js';

interface ModelsRequestsOptions {
  refresh?: boolean;
  limit?: number;
  model?: string;
}

const modelsRequestsOptions = (): OptionsDeclaration<ModelsRequestsOptions> => ({
  refresh: flag('--refresh', 'ask the router for the current state of the unfinished ones first'),
  limit: valueOption('--limit <n>', 'at most N requests (default 20)', wholeNumberIn(1, 10_000)),
  model: valueOption('--model <provider/model>', 'only requests of this model', nonEmpty),
});

const DEFAULT_LIMIT = 20;

async function refresh(f: Factory, unfinished: HistoryEntry[]): Promise<void> {
  const client = modelsClient(f);
  const history = historyOf(f);
  for (const entry of unfinished) {
    try {
      client.requests.remember(entry.id, entry.links);
      const read = await client.requests.status(parseModelId(entry.source), entry.id);
      history.recordStatus(entry.id, historyStatus(read.value));
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 410)) history.recordStatus(entry.id, GONE);
      else throw err;
    }
  }
}

async function run(f: Factory, _args: unknown, opts: ModelsRequestsOptions): Promise<number> {
  const model = opts.model === undefined ? undefined : modelArg(opts.model).id;
  const history = historyOf(f);
  const mine = (e: HistoryEntry) => model === undefined || e.source === model;
  if (opts.refresh) await refresh(f, history.entries().filter((e) => mine(e) && !isFinished(e)));
  const shown = history.newest(opts.limit ?? DEFAULT_LIMIT, model === undefined ? undefined : mine).entries;
  if (f.io.json) {
    f.io.printJson(shown.map((e) => ({ request_id: e.id, model: e.source, status: e.status, submitted_at: e.submitted_at, seen_at: e.seen_at })));
    return 0;
  }
  if (shown.length === 0) {
    const s = f.settings();
    f.io.info(`no model requests${model ? ` of ${model}` : ''} queued from here for profile ${s.profile} at ${s.routerUrl}`);
    return 0;
  }
  const now = f.clock.now();
  printTable(f.io, ['request', 'model', 'status', 'submitted'], shown.map((e) => [e.id, e.source, e.status, f.io.stdoutIsTTY ? age(now - Date.parse(e.submitted_at)) : e.submitted_at]), { keep: [0] });
  if (!opts.refresh && shown.some((e) => !isFinished(e))) f.io.info('(states as last seen; --refresh asks the router about the unfinished ones)');
  return 0;
}

export default defineVerb({
  path: ['models', 'requests'],
  args: {},
  options: modelsRequestsOptions(),
  help: { summary: 'List the model requests queued from this machine, newest first, with their last known state', after: ['\nExamples:\n  $ wes models requests\n  $ wes models requests --refresh --model dev/slow\n  $ wes models requests --json | jq -r \'.[0].request_id\''] },
  run,
});
