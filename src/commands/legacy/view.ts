// wes legacy view <filename> [--subfolder S] [--type output|temp] [-o FILE]: the file behind
// /api/view. The 302's signed URL is fetched with no key (redirects by hand, in the HTTP layer).
import { dirname, basename } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { safeFileName } from '../../files/safe-name.js';
import { saveToFile } from '../../files/save.js';
import { legacyClient } from './shared.js';

const TYPES = ['output', 'temp', 'input'];

export async function run(f: Factory, args: string[], opts: Record<string, unknown>): Promise<number> {
  const ref = { filename: args[0]!, subfolder: (opts.subfolder as string | undefined) ?? '', type: (opts.type as string | undefined) ?? 'output' };
  if (!TYPES.includes(ref.type)) throw new UsageError(`--type must be output or temp (or input), got ${ref.type}`);
  const client = legacyClient(f, 'view');
  const target = opts.output as string | undefined;
  if (target === '-' || (target === undefined && !f.io.stdoutIsTTY)) {
    const res = await client.view(ref);
    await pipeline(res.body, f.io.stdout, { end: false });
    return 0;
  }
  // A name the user gave is theirs; a name the server's file reference carries is made safe.
  const path = target ?? safeFileName(basename(ref.filename), 'download');
  const saved = await saveToFile({
    dir: dirname(path),
    name: basename(path),
    open: async () => {
      const res = await client.view(ref);
      return { status: res.status, body: res.body };
    },
  });
  if (f.io.json) f.io.printJson({ path: saved.path, bytes: saved.bytes, hash: saved.hash });
  else f.io.info(`saved ${saved.path} (${saved.bytes} bytes)`);
  return 0;
}
