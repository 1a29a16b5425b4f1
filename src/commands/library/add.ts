// wes library add FILE --tag T...: puts a file into the asset library. Its blake3 hash is asked
// about first (checkAssetByHash): content the cloud already stores becomes a new record with no
// bytes sent (createAssetFromHash), as `wes assets upload` does on the job API; otherwise the file
// is uploaded (uploadAsset, multipart), and the same content already in the library is said.
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { LibraryClient } from '../../clients/legacy/library.js';
import { blake3File } from '../../files/blake3.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { nonEmpty, repeatableOption, valueOption, type OptionsDeclaration } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';
import { basename } from 'node:path';
import { stat } from 'node:fs/promises';

interface LibraryAddOptions {
  tag?: string[];
  name?: string;
}

const options = (): OptionsDeclaration<LibraryAddOptions> => ({
  tag: repeatableOption('--tag <tag>', 'a tag for the asset, e.g. models, checkpoint, input (repeatable; at least one)', nonEmpty),
  name: valueOption('--name <name>', 'its display name (default: the file\'s name)', nonEmpty),
});

const positional = { file: arg('<file>') };

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: LibraryAddOptions): Promise<number> {
  const tags = opts.tag ?? [];
  if (tags.length === 0) throw new UsageError('give the asset at least one --tag (e.g. --tag input, or --tag models --tag lora)');
  const info = await stat(args.file).catch(() => null);
  if (!info?.isFile()) throw new UsageError(`cannot read ${args.file}: not a file`);
  const client = f.client(LibraryClient);
  const name = opts.name ?? basename(args.file);
  const hash = await blake3File(args.file, f.hashing());
  const stored = await client.hasHash(hash);
  const asset = stored ? await client.fromHash(hash, name, tags) : await client.upload({ path: args.file, name, tags });
  if (f.io.json) f.io.printJson(asset);
  else f.io.println(asset.id);
  const how = stored ? 'its content was already stored: no bytes sent' : asset.created_new ? `${info.size} bytes uploaded` : 'the same content was already in the library: that asset was returned';
  f.io.info(sanitizeLine(`✓ ${asset.name} in the library as ${asset.id} (${how})`));
  return 0;
}

export default defineVerb({
  path: ['library', 'add'],
  args: positional,
  options: options(),
  help: {
    summary: 'Put a file into the asset library (its hash asked first: stored content is not sent again)',
    after: ['\nExamples:\n  $ wes library add lora.safetensors --tag models --tag lora\n  $ wes library add cat.png --tag input --name "cat, front"'],
  },
  run,
});
