// wes assets download <id> [path]: the asset's bytes, blake3-checked, to a file or into a folder
// (src/features/transfers/asset-download.ts).
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { existingPolicy } from '../../files/existing.js';
import { checkFileTarget, checkFolderTarget } from '../../files/targets.js';
import { isFolder, saveAsset } from '../../features/transfers/asset-download.js';
import { reporterOn } from '../reporters.js';
import { existingFileOptions, type ExistingFileOptions } from '../option-values.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

const positional = { id: arg('<id>'), path: arg('[path]') };

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: ExistingFileOptions): Promise<number> {
  const existing = existingPolicy(opts);
  const path = args.path;
  if (path !== undefined) await ((await isFolder(path)) ? checkFolderTarget(path, 'the folder') : checkFileTarget(path, 'the file'));
  const client = f.client(JobsClient);
  const record = await client.getAsset(args.id);
  const saved = await saveAsset(client, record, path, existing, reporterOn(f.io), f.hashing());
  if (f.io.json) f.io.printJson(saved);
  else f.io.println(saved.path);
  if (saved.kept === 'same') f.io.info(`✓ ${saved.path} already holds these bytes (blake3 checked); nothing downloaded`);
  else if (saved.kept) f.io.info(`kept the existing ${saved.path} as it is (--skip-existing)`);
  else f.io.info(`✓ saved ${saved.bytes} bytes${saved.verified ? ' (blake3 checked)' : ' (not verified by hash: the service reported none; size checked against the transfer)'}`);
  if (saved.declared_size_bytes !== undefined) f.io.info(`note: the asset record declared ${saved.declared_size_bytes} bytes; the whole transfer delivered ${saved.bytes}`);
  return 0;
}

export default defineVerb({
  path: ['assets', 'download'],
  args: positional,
  options: existingFileOptions(),
  help: {
    summary: 'Save an asset\'s bytes to PATH (a file, or a folder; default: its name in the current folder), blake3-checked',
    after: [
      `
Examples:
  $ wes assets download "$ASSET"
  $ wes assets download "$ASSET" out/cat.png`,
    ],
  },
  run,
});
