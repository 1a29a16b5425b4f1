// wes legacy upload <file> [--type input|temp] [--overwrite] [--mask --original FILE_REF]
import type { Factory } from '../../factory.js';
import { checkLocalFile } from '../../files/local-file.js';
import { sanitizeLine } from '../../render/sanitize.js';
import { legacyClient } from './shared.js';
import { uploadProgress } from '../../render/upload-progress.js';
import type { LegacyUploadOptions } from './options.js';

export async function run(f: Factory, args: string[], opts: LegacyUploadOptions): Promise<number> {
  const path = args[0]!;
  // The options' rules hold --mask and --original together (src/commands/legacy/options.ts):
  // --original given is a mask upload.
  const originalRef = opts.original;
  const size = await checkLocalFile(path);
  const { client } = await legacyClient(f, 'upload');
  const progress = await uploadProgress(f.io, path, size);
  const onProgress = progress && ((sent: number) => progress.sent(sent));
  const result = await (originalRef
    ? client.uploadMask({ path, type: opts.type, originalRef, onProgress })
    : client.upload({ path, type: opts.type, overwrite: opts.overwrite === true, onProgress })
  ).finally(() => progress?.done());
  if (f.io.json) {
    f.io.printJson(result);
    return 0;
  }
  const name = sanitizeLine(result.name);
  f.io.println(result.subfolder ? `${sanitizeLine(result.subfolder)}/${name}` : name);
  f.io.info(`uploaded ${path} as ${JSON.stringify(name)}${originalRef ? ` (mask of ${originalRef.filename})` : ''}; refer to it by that name in a LoadImage node`);
  return 0;
}
