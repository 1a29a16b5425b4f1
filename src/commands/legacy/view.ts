// wes legacy view <filename> [--subfolder S] [--type output|temp] [-o FILE]: the file behind
// /api/view. The 302's signed URL is fetched with no key (redirects by hand, in the HTTP layer).
// A file already at -o with the same bytes is kept (exit 0); with other bytes it stops the command
// unless --clobber or --skip-existing says otherwise.
import { dirname, basename } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Factory } from '../../factory.js';
import { safeFileName } from '../../files/safe-name.js';
import { existingPolicy } from '../../files/existing.js';
import { reportKept, type KeptPart } from '../../files/kept.js';
import { checkFileTarget } from '../../files/targets.js';
import { makeFolders } from '../../files/safe-file.js';
import { shellWord } from '../../render/shell-word.js';
import { FileExistsError } from '../../files/safe-file.js';
import { holdsServedBytes, saveViewed } from './files.js';
import { legacyClient } from './shared.js';
import type { LegacyViewOptions } from './options.js';

export async function run(f: Factory, args: string[], opts: LegacyViewOptions): Promise<number> {
  const ref = { filename: args[0]!, subfolder: opts.subfolder, type: opts.type };
  const existing = existingPolicy(opts);
  const target = opts.output;
  if (target !== undefined && target !== '-') await checkFileTarget(target, '-o');
  const { client } = await legacyClient(f, 'view');
  if (target === '-' || (target === undefined && !f.io.stdoutIsTTY)) {
    const res = await client.view(ref);
    await pipeline(res.body, f.io.stdout, { end: false });
    return 0;
  }
  // A name the user gave is theirs; a name the server's file reference carries is made safe.
  const path = target ?? safeFileName(basename(ref.filename), 'download');
  if (existing === 'refuse') {
    const compared = await holdsServedBytes(client, ref, path);
    if (compared && !compared.same) throw new FileExistsError(path, 'already exists with other bytes');
    if (compared) {
      f.io.info(`kept the existing ${path} (the same bytes)`);
      if (f.io.json) f.io.printJson({ path, bytes: compared.bytes, hash: compared.hash });
      return 0;
    }
  }
  const kept: KeptPart[] = [];
  await makeFolders(dirname(path));
  const saved = await saveViewed(client, ref, dirname(path), basename(path), {
    existing,
    warn: (line) => f.io.warn(line),
    onKept: (part) => kept.push(part),
  }).finally(() => reportKept(f.io, kept, `the same command (${['wes', 'legacy', 'view', ref.filename, '-o', path].map(shellWord).join(' ')})`));
  if (saved.kept) f.io.info(`kept the existing ${saved.path} (--skip-existing)`);
  if (f.io.json) f.io.printJson({ path: saved.path, bytes: saved.bytes, hash: saved.hash });
  else if (!saved.kept) f.io.info(`saved ${saved.path} (${saved.bytes} bytes)`);
  return 0;
}
