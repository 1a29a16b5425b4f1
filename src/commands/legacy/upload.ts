// wes legacy upload <file> [--type input|temp] [--overwrite] [--mask --original FILE_REF]
import { stat } from 'node:fs/promises';
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { sanitizeLine } from '../../render/sanitize.js';
import { legacyClient } from './shared.js';
import { uploadProgress } from '../../render/upload-progress.js';
import type { LegacyUploadOptions } from './options.js';

/** The file's size; a usage error (exit 2) when it cannot be read or is not a regular file. */
async function checkFile(path: string): Promise<number> {
  const info = await stat(path).catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${path}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  });
  if (!info.isFile()) throw new UsageError(`cannot upload ${path}: it is not a regular file`);
  return info.size;
}

export async function run(f: Factory, args: string[], opts: LegacyUploadOptions): Promise<number> {
  const path = args[0]!;
  // The options' rules hold --mask and --original together (src/commands/legacy/options.ts):
  // --original given is a mask upload.
  const originalRef = opts.original;
  const size = await checkFile(path);
  const client = await legacyClient(f, 'upload');
  const progress = uploadProgress(f.io, path, size);
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
