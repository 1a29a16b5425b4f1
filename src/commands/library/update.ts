// wes library update ID [--name N] [--tags a,b] [--add-tag T] [--remove-tag T]: rename and retag
// an asset (updateAsset, addAssetTags, removeAssetTags); prints its tags afterwards.
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { LibraryClient } from '../../clients/legacy/library.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { nonEmpty, repeatableOption, valueOption, type OptionsDeclaration } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

interface LibraryUpdateOptions {
  name?: string;
  tags?: string;
  addTag?: string[];
  removeTag?: string[];
}

const options = (): OptionsDeclaration<LibraryUpdateOptions> => ({
  name: valueOption('--name <name>', 'rename it', nonEmpty),
  tags: valueOption('--tags <a,b,...>', 'replace all its tags with these', nonEmpty).conflicts(['addTag', 'removeTag']),
  addTag: repeatableOption('--add-tag <tag>', 'add a tag (repeatable)', nonEmpty),
  removeTag: repeatableOption('--remove-tag <tag>', 'remove a tag (repeatable)', nonEmpty),
});

const positional = { id: arg('<id>') };

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: LibraryUpdateOptions): Promise<number> {
  const adds = opts.addTag ?? [];
  const removes = opts.removeTag ?? [];
  if (opts.name === undefined && opts.tags === undefined && adds.length === 0 && removes.length === 0) {
    throw new UsageError('say what to change: --name, --tags, --add-tag or --remove-tag');
  }
  const client = f.client(LibraryClient);
  let tags: string[] | undefined;
  if (opts.name !== undefined || opts.tags !== undefined) {
    const replaced = opts.tags?.split(',').map((t) => t.trim()).filter(Boolean);
    tags = (await client.update(args.id, { ...(opts.name !== undefined ? { name: opts.name } : {}), ...(replaced ? { tags: replaced } : {}) })).tags;
  }
  if (adds.length > 0) tags = (await client.changeTags(args.id, adds, true)).total_tags;
  if (removes.length > 0) tags = (await client.changeTags(args.id, removes, false)).total_tags;
  if (f.io.json) f.io.printJson({ id: args.id, tags: tags ?? null });
  else f.io.info(sanitizeLine(`✓ updated ${args.id}${tags ? `; tags: ${tags.join(', ') || '(none)'}` : ''}`));
  return 0;
}

export default defineVerb({
  path: ['library', 'update'],
  args: positional,
  options: options(),
  help: {
    summary: 'Rename an asset of the library, or change its tags',
    after: ['\nExamples:\n  $ wes library update "$ID" --name "flux dev fp8"\n  $ wes library update "$ID" --add-tag favourite --remove-tag draft'],
  },
  run,
});
