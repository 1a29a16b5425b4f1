// wes library list: the account's asset library, a page at a time (listAssets), filtered by tags
// and name; the last line names the next page's --offset.
import type { Factory } from '../../factory.js';
import { LibraryClient } from '../../clients/legacy/library.js';
import { LIBRARY_SORTS } from '../../protocol/library.js';
import { printTable } from '../../render/table.js';
import { formatBytes } from '../../util/byte-count.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { choice, valueOption, wholeNumberIn, type OptionsDeclaration } from '../typed-options.js';
import { filterDeclaration, filterOf, type LibraryFilterOptions } from './options.js';
import { defineVerb } from '../verb.js';

interface LibraryListOptions extends LibraryFilterOptions {
  limit?: number;
  offset?: number;
  sort?: (typeof LIBRARY_SORTS)[number];
  order?: 'asc' | 'desc';
}

const options = (): OptionsDeclaration<LibraryListOptions> => ({
  ...filterDeclaration(),
  limit: valueOption('--limit <n>', 'assets per page, 1-500 (default 20)', wholeNumberIn(1, 500)),
  offset: valueOption('--offset <n>', 'skip this many (the next page: the offset the last line names)', wholeNumberIn(0)),
  sort: choice('--sort <field>', 'sort by this field (default created_at)', LIBRARY_SORTS),
  order: choice('--order <order>', 'asc or desc (default desc)', ['asc', 'desc'] as const),
});

async function run(f: Factory, _args: unknown, opts: LibraryListOptions): Promise<number> {
  const page = await f.client(LibraryClient).list({ ...filterOf(opts), limit: opts.limit, offset: opts.offset, sort: opts.sort, order: opts.order });
  if (f.io.json) {
    f.io.printJson(page);
    return 0;
  }
  const rows = page.assets.map((a) => [a.id, sanitizeLine(a.name), formatBytes(a.size), sanitizeLine((a.tags ?? []).join(', '))]);
  printTable(f.io, ['id', 'name', 'size', 'tags'], rows, { keep: [0] });
  const from = opts.offset ?? 0;
  const next = page.has_more ? `; next page: --offset ${from + page.assets.length}` : '';
  f.io.info(`${page.assets.length} of ${page.total} asset(s)${next}`);
  return 0;
}

export default defineVerb({
  path: ['library', 'list'],
  args: {},
  options: options(),
  help: {
    summary: 'List the asset library, filtered by tags and name, a page at a time',
    after: ['\nExamples:\n  $ wes library list --tag models --tag checkpoint\n  $ wes library list --name flux --limit 100 --offset 100'],
  },
  run,
});
