// A local file named on the command line to be uploaded: it must exist and be a regular file.
import { stat } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { whyUnreadable } from './unreadable.js';

/** The file's size, or a usage error (exit 2) saying why it cannot be uploaded. */
export async function checkLocalFile(path: string): Promise<number> {
  const info = await stat(path).catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${path}: ${whyUnreadable(err)}`);
  });
  if (!info.isFile()) throw new UsageError(`cannot upload ${path}: it is not a regular file`);
  return info.size;
}
