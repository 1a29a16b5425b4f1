// wes library add FILE --tag T...: puts a file into the asset library. Its blake3 hash is asked
// about first (checkAssetByHash): content the cloud already stores becomes a new record with no
// bytes sent (createAssetFromHash), as `wes assets upload` does on the job API; otherwise the file
// is uploaded (uploadAsset, multipart), and the same content already in the library is said.
// With --url the cloud fetches the file itself (uploadAsset's JSON form) while the command waits;
// wes never contacts that URL, so no credential of wes's goes there.
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { LibraryClient } from '../../clients/legacy/library.js';
import { blake3File } from '../../files/blake3.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { nonEmpty, repeatableOption, valueOption, type OptionsDeclaration } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';
import { basename } from 'node:path';
import { remoteUrl, urlFileName } from './url.js';
import { stat } from 'node:fs/promises';

interface LibraryAddOptions {
  tag?: string[];
  name?: string;
  url?: string;
}

const options = (): OptionsDeclaration<LibraryAddOptions> => ({
  tag: repeatableOption('--tag <tag>', 'a tag for the asset, e.g. models, checkpoint, input (repeatable; at least one)', nonEmpty),
  name: valueOption('--name <name>', 'its display name; its extension is the file\'s (default: the file\'s name, or the URL\'s last part)', nonEmpty),
  url: valueOption('--url <url>', 'have the cloud fetch the file from this HTTP(S) URL instead of uploading one', nonEmpty),
});

const positional = { file: arg('[file]') };

async function addFromUrl(f: Factory, raw: string, name: string | undefined, tags: string[]): Promise<number> {
  const url = remoteUrl(raw);
  const fallback = urlFileName(url);
  if (name === undefined && fallback === '') throw new UsageError(`${raw} names no file: give the asset a name with --name (its extension tells the file's type)`);
  const asset = await f.client(LibraryClient).addFromUrl({ url: url.href, name: name ?? fallback, tags });
  if (f.io.json) f.io.printJson(asset);
  else f.io.println(asset.id);
  const how = asset.created_new ? `${asset.size} bytes fetched by the cloud from ${url.host}` : 'the same content was already in the library: that asset was returned';
  f.io.info(sanitizeLine(`✓ ${asset.name} in the library as ${asset.id} (${how})`));
  return 0;
}

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: LibraryAddOptions): Promise<number> {
  const tags = opts.tag ?? [];
  if (tags.length === 0) throw new UsageError('give the asset at least one --tag (e.g. --tag input, or --tag models --tag lora)');
  if ((args.file === undefined) === (opts.url === undefined)) throw new UsageError('give either a FILE to upload or --url URL for the cloud to fetch, not both or neither');
  if (opts.url !== undefined) return addFromUrl(f, opts.url, opts.name, tags);
  if (args.file === undefined) throw new UsageError('give a FILE to upload');
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
    summary: 'Put a file into the asset library, from disk (its hash asked first) or fetched by the cloud from a URL',
    after: ['\nExamples:\n  $ wes library add lora.safetensors --tag models --tag lora\n  $ wes library add cat.png --tag input --name "cat, front"\n  $ wes library add --url https://example.com/cat.png --name cat.png --tag input'],
  },
  run,
});
