// wes models list: one catalog page, or the whole catalog with --all.
import type { Factory } from '../../factory.js';
import { LIST_LIMIT_MAX, type RouterModelListEntry } from '../../protocol/models.js';
import { walkCatalog } from '../../clients/models/walk.js';
import { modelsClient } from '../../command-kit/models/context.js';
import { segmentProblem } from '../../protocol/model-ids.js';
import { checked, flag, valueOption, wholeNumber, type OptionsDeclaration } from '../typed-options.js';
import { defineVerb } from '../verb.js';

interface ModelsListOptions {
  all?: boolean;
  limit?: number;
  provider?: string;
}

const modelsListOptions = (): OptionsDeclaration<ModelsListOptions> => ({
  all: flag('--all', 'walk every page of the catalog'),
  limit: valueOption('--limit <n>', 'page size to ask for (the router clamps it; default 20, 100 with --all)', wholeNumber),
  provider: valueOption('--provider <provider>', 'only models of this provider', checked((raw) => segmentProblem('provider', raw))),
});

const ALL_STRIDE = LIST_LIMIT_MAX;

/** The table renderer (cli-table3) loads only for a table: --json never needs it. */
async function printEntries(f: Factory, entries: RouterModelListEntry[]): Promise<void> {
  const { printTable } = await import('../../render/table.js');
  printTable(f.io, ['id', 'provider', 'model', 'charged if refused'], entries.map((e) => [e.id, e.provider, e.model, e.billing.charges_on_policy_rejection]), { keep: [0], drop: [1, 2] });
}

async function run(f: Factory, _args: unknown, opts: ModelsListOptions): Promise<number> {
  const { limit, provider } = opts;
  const keep = (e: RouterModelListEntry) => provider === undefined || e.provider === provider;
  const client = modelsClient(f);

  if (opts.all) {
    const entries = (
      await walkCatalog(client, {
        limit: limit ?? ALL_STRIDE,
        onRestart: (reason) => f.io.info(`note: the catalog changed during the walk (${reason}); starting over, each model listed once`),
      })
    ).filter(keep);
    if (f.io.json) f.io.printJson(entries);
    else {
      await printEntries(f, entries);
      f.io.info(`${entries.length} model${entries.length === 1 ? '' : 's'}`);
    }
    return 0;
  }

  const page = await client.listPage({ limit });
  const shown = { ...page, data: page.data.filter(keep) };
  if (f.io.json) f.io.printJson(shown);
  else {
    await printEntries(f, shown.data);
    if (page.has_more) f.io.info(`more models follow; list them all with \`wes models list --all\``);
  }
  return 0;
}

export default defineVerb({
  path: ['models', 'list'],
  args: {},
  options: modelsListOptions(),
  help: { summary: 'List runnable models: one page, or every page with --all', after: ['\nExamples:\n  $ wes models list\n  $ wes models list --all --provider acme\n  $ wes models list --all --json | jq -r \'.[].id\''] },
  run,
});
