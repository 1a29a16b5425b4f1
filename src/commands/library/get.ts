// wes library get ID: one asset of the library (getAssetById); --json prints it as sent.
import type { Factory } from '../../factory.js';
import { LibraryClient } from '../../clients/legacy/library.js';
import { printRecord } from '../../render/table.js';
import { formatBytes } from '../../util/byte-count.js';
import { noOptions } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

const positional = { id: arg('<id>') };

async function run(f: Factory, args: ArgsOf<typeof positional>): Promise<number> {
  const asset = await f.client(LibraryClient).get(args.id);
  printRecord(f.io, asset, () => [
    ['id', asset.id],
    ['name', asset.name],
    ['size', `${formatBytes(asset.size)} (${asset.size} bytes)`],
    ['type', asset.mime_type],
    ['hash', asset.asset_hash],
    ['tags', (asset.tags ?? []).join(', ')],
    ['created', asset.created_at],
    ['updated', asset.updated_at],
    ['job', asset.prompt_id ?? undefined],
  ]);
  return 0;
}

export default defineVerb({
  path: ['library', 'get'],
  args: positional,
  options: noOptions(),
  help: { summary: 'Show one asset of the library (name, size, hash, tags)', after: ['\nExamples:\n  $ wes library get "$ID"\n  $ wes library get "$ID" --json | jq .tags'] },
  run,
});
