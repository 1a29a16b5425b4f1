// Output targets are checked before anything is submitted or sent, so a job does not run for
// nothing: a folder target must be a folder (or creatable under one) that this user can write
// in; a file target must not be a folder and must sit in such a folder. The proof is a real file
// created exclusively and removed again, which also catches read-only mounts and /proc.
import { stat, unlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { createFresh } from './safe-file.js';

async function statOrNone(path: string) {
  return stat(path).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
    // The words load only for the failure (a plain run does not load them).
    const { whyUnreadable } = await import('./unreadable.js');
    throw new UsageError(`${path}: cannot be used as an output: ${whyUnreadable(err)}`);
  });
}

/** The folder itself when it exists, else its nearest existing ancestor (which must be a folder). */
async function existingFolder(dir: string, what: string): Promise<string> {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const stats = await statOrNone(at);
    if (stats?.isDirectory()) return at;
    if (stats) {
      throw new UsageError(
        at === resolve(dir) ? `${what} ${dir} is a file, not a folder` : `${what} ${dir} cannot be created: ${at} is a file, not a folder`,
        'name a folder (it is created when missing)',
      );
    }
    if (at === dirname(at)) return at;
  }
}

async function probeWrite(folder: string, what: string, target: string): Promise<void> {
  try {
    const probe = await createFresh(resolve(folder, 'wes-write-check'));
    await probe.handle.close();
    await unlink(probe.path);
  } catch (err) {
    const { whyUnwritable } = await import('./unreadable.js');
    throw new UsageError(`${what} ${target}: cannot write files in ${folder}: ${whyUnwritable(err)}`, 'choose a folder you can write to');
  }
}

/** A folder wes will save files into (`--download DIR`, `--previews DIR`). Throws UsageError (exit 2). */
export async function checkFolderTarget(dir: string, what: string): Promise<void> {
  await probeWrite(await existingFolder(dir, what), what, dir);
}

/** A file wes will write (`-o FILE`, `--results FILE`). Throws UsageError (exit 2). */
export async function checkFileTarget(path: string, what: string): Promise<void> {
  if ((await statOrNone(path))?.isDirectory()) throw new UsageError(`${what} ${path} is a folder, not a file`, 'name a file');
  await probeWrite(await existingFolder(dirname(resolve(path)), what), what, path);
}
