// wes library rm ID: deletes an asset and its content (deleteAsset).
import type { Factory } from '../../factory.js';
import { LibraryClient } from '../../clients/legacy/library.js';
import { noOptions } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

const positional = { id: arg('<id>') };

async function run(f: Factory, args: ArgsOf<typeof positional>): Promise<number> {
  await f.client(LibraryClient).remove(args.id);
  f.io.info(`✓ deleted ${args.id} from the library`);
  return 0;
}

export default defineVerb({
  path: ['library', 'rm'],
  args: positional,
  options: noOptions(),
  help: { summary: 'Delete an asset of the library, content and all', after: ['\nExamples:\n  $ wes library rm "$ID"'] },
  run,
});
