// A local file's bytes; a missing or unreadable file is a usage error naming it.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { whyUnreadable } from './unreadable.js';

export async function readLocalBytes(path: string): Promise<Buffer> {
  return readFile(path).catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${path}: ${whyUnreadable(err)}`);
  });
}
