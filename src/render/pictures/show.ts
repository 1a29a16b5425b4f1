// `--show`: the saved files, each path on stdout followed by its picture when the terminal can
// draw one (PNG and JPEG; a thumbnail, aspect kept). Elsewhere only the paths, and one line on
// stderr saying why there is no picture.
import { open } from 'node:fs/promises';
import type { IOStreams } from '../io.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { terminalPicture } from './picture.js';
import { pictureFormat } from './raster.js';
import { pictureSupport } from './support.js';

/** Larger files are not read to make a thumbnail. */
const MAX_PICTURE_BYTES = 64 << 20;

/**
 * Prints each path (the command's data; not when the command prints them its own way, as JSON)
 * and, on a terminal that can, the picture under it.
 */
export async function showSavedPictures(io: IOStreams, paths: readonly string[], printPaths = true): Promise<void> {
  const support = paths.length > 0 ? await pictureSupport(io, 'show') : null;
  if (support && 'reason' in support) io.info(support.reason);
  const skipped: string[] = [];
  for (const path of paths) {
    if (printPaths) io.println(path);
    if (!support || !('terminal' in support)) continue;
    const bytes = await readPicture(path);
    if (!bytes) {
      skipped.push(path);
      continue;
    }
    try {
      const picture = await terminalPicture(bytes, support.terminal);
      io.stdout.write(`${picture.sequence}\n`);
    } catch (err) {
      io.info(sanitizeLine(`no picture of ${path}: ${(err as Error).message}`));
    }
  }
  if (skipped.length > 0) io.info(`${skipped.length} file(s) shown by path only: pictures are drawn from PNG and JPEG files`);
}

/** The file's bytes when it is a PNG or JPEG of a size worth reading; null otherwise. */
async function readPicture(path: string): Promise<Uint8Array | null> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    if (size > MAX_PICTURE_BYTES) return null;
    const bytes = await file.readFile();
    return pictureFormat(bytes) ? bytes : null;
  } finally {
    await file.close();
  }
}
