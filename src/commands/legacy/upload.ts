// wes legacy upload <file> [--type input|temp] [--overwrite] [--mask --original FILE_REF]
import type { Factory } from '../../factory.js';
import { checkLocalFile } from '../../files/local-file.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { legacyClient } from './shared.js';
import { uploadInput } from '../../features/transfers/uploads.js';
import { transferReporterOn } from '../reporters.js';
import type { LegacyUploadOptions } from './options.js';

export async function run(f: Factory, args: string[], opts: LegacyUploadOptions): Promise<number> {
  const path = args[0]!;
  // The options' rules hold --mask and --original together (src/commands/legacy/options.ts):
  // --original given is a mask upload.
  const originalRef = opts.original;
  const size = await checkLocalFile(path);
  const { client } = await legacyClient(f, 'upload');
  const result = await uploadInput(client, { path, size, type: opts.type, overwrite: opts.overwrite === true, originalRef }, transferReporterOn(f.io));
  if (f.io.json) {
    f.io.printJson(result);
    return 0;
  }
  const name = sanitizeLine(result.name);
  f.io.println(result.subfolder ? `${sanitizeLine(result.subfolder)}/${name}` : name);
  f.io.info(`uploaded ${path} as ${JSON.stringify(name)}${originalRef ? ` (mask of ${originalRef.filename})` : ''}; refer to it by that name in a LoadImage node`);
  return 0;
}
