// wes library tags: the tags of the library with how many assets carry each (listTags); with a
// filter (--tag, --exclude-tag, --name), the tags on the assets it finds (getAssetTagHistogram),
// to narrow a search down.
import type { Factory } from '../../factory.js';
import { LibraryClient } from '../../clients/legacy/library.js';
import { printTable } from '../../render/table.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { nonEmpty, valueOption, wholeNumberIn, type OptionsDeclaration } from '../typed-options.js';
import { filterDeclaration, filterOf, type LibraryFilterOptions } from './options.js';
import { defineVerb } from '../verb.js';

interface LibraryTagsOptions extends LibraryFilterOptions {
  prefix?: string;
  limit?: number;
}

const options = (): OptionsDeclaration<LibraryTagsOptions> => {
  const filter = filterDeclaration();
  return {
    ...filter,
    prefix: valueOption('--prefix <text>', 'only tags starting with TEXT', nonEmpty).conflicts(['tag', 'excludeTag', 'name']),
    limit: valueOption('--limit <n>', 'at most this many tags, 1-1000 (default 100)', wholeNumberIn(1, 1000)),
  };
};

async function run(f: Factory, _args: unknown, opts: LibraryTagsOptions): Promise<number> {
  const client = f.client(LibraryClient);
  const refining = opts.tag !== undefined || opts.excludeTag !== undefined || opts.name !== undefined;
  const rows = refining
    ? Object.entries((await client.refine({ ...filterOf(opts), limit: opts.limit })).tag_counts)
    : (await client.tags({ prefix: opts.prefix, limit: opts.limit })).tags.map((t) => [t.name, t.count] as [string, number]);
  if (f.io.json) {
    f.io.printJson(Object.fromEntries(rows));
    return 0;
  }
  printTable(f.io, ['tag', 'assets'], rows.map(([tag, count]) => [sanitizeLine(tag), count]), { keep: [0] });
  f.io.info(refining ? `${rows.length} tag(s) on the assets found` : `${rows.length} tag(s)`);
  return 0;
}

export default defineVerb({
  path: ['library', 'tags'],
  args: {},
  options: options(),
  help: {
    summary: 'List the library\'s tags with counts; with --tag, the tags on the assets that have it',
    after: ['\nExamples:\n  $ wes library tags --prefix lo\n  $ wes library tags --tag models --json'],
  },
  run,
});
