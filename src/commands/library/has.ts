// wes library has FILE|HASH: whether the cloud already stores this content (checkAssetByHash), a
// file's blake3 hash computed here; nothing is uploaded. Exit 0 when stored, 5 when not, so a script
// can ask before a large upload (`library add` asks the same itself and sends no bytes then).
import { stat } from 'node:fs/promises';
import type { Factory } from '../../factory.js';
import { LibraryClient } from '../../clients/legacy/library.js';
import { ExitCode, UsageError } from '../../errors.js';
import { blake3File } from '../../files/blake3.js';
import { noOptions } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

const HASH = /^blake3:[0-9a-f]{64}$/;

const positional = { what: arg('<file-or-hash>', 'a local file, or a hash as blake3:<64 hex>') };

async function hashOf(f: Factory, what: string): Promise<string> {
  if (HASH.test(what)) return what;
  const info = await stat(what).catch(() => null);
  if (info?.isFile()) return blake3File(what, f.hashing());
  if (/^blake3:/i.test(what)) throw new UsageError(`not a blake3 hash: ${what}`, 'a hash is blake3: and 64 lowercase hex digits');
  throw new UsageError(`cannot read ${what}: not a file`, 'give a local file, or a hash as blake3:<64 hex>');
}

async function run(f: Factory, args: ArgsOf<typeof positional>): Promise<number> {
  const hash = await hashOf(f, args.what);
  const stored = await f.client(LibraryClient).hasHash(hash);
  if (f.io.json) f.io.printJson({ hash, stored });
  else f.io.println(`${hash}\t${stored ? 'stored' : 'not stored'}`);
  if (stored) f.io.info('the cloud stores this content: `wes library add FILE --tag T` makes it an asset with no bytes sent');
  return stored ? 0 : ExitCode.NOT_FOUND;
}

export default defineVerb({
  path: ['library', 'has'],
  args: positional,
  options: noOptions(),
  help: {
    summary: 'Whether the cloud already stores a file\'s content (by its blake3 hash); nothing is uploaded',
    after: ['\nExamples:\n  $ wes library has flux-dev.safetensors\n  $ wes library has blake3:4f1c…  --json', '\nExit 0: stored; 5: not stored.'],
  },
  run,
});
