// The `NAME.part` a download writes into, kept when the download is cut short so that the next
// run goes on from its last byte. It is reopened only after lstat shows a regular file of this
// user with no other link; anything else found at that name (a planted link, someone else's file)
// is moved aside with a warning and the download starts fresh in a file created exclusively.
import { randomHex } from '../util/random-hex.js';
import { constants, type Stats } from 'node:fs';
import { rename, unlink, type FileHandle } from 'node:fs/promises';
import { createFresh, lstatOrNone, notOwnPlainFile, openOwnFile } from './safe-file.js';

export interface PartFile {
  path: string;
  handle: FileHandle;
  /** Bytes already in the file (kept from an earlier run). */
  size: number;
}

/** Reopens a kept part for reading and appending; undefined when it is not what lstat showed. */
async function reopen(path: string): Promise<PartFile | undefined> {
  const opened = await openOwnFile(path, constants.O_RDWR | constants.O_APPEND);
  return opened && { path, handle: opened.handle, size: opened.size };
}

/**
 * A part that was given its final name by link() but not yet unlinked (a kill between the two):
 * NAME and NAME.part are then one file of ours with two names. Drops the extra name, so the next
 * run sees the finished file it is and no leftover part. `final`: the lstat of NAME. Returns whether it did.
 */
export async function dropCommittedPart(finalPath: string, final: Stats): Promise<boolean> {
  if (!final.isFile() || final.nlink !== 2) return false;
  const path = `${finalPath}.part`;
  const part = await lstatOrNone(path);
  if (!part || !part.isFile()) return false;
  if (part.dev !== final.dev || part.ino !== final.ino || part.nlink !== 2) return false;
  if (typeof process.getuid === 'function' && part.uid !== process.getuid()) return false;
  await unlink(path);
  return true;
}

/**
 * The part file for `finalPath`: the kept one when it can be trusted, else a fresh one (created
 * under a random name, then renamed over whatever stood at NAME.part: rename replaces a link,
 * never writes through it). `warn` is told when something had to be moved aside.
 */
export async function openPart(finalPath: string, warn: (line: string) => void): Promise<PartFile> {
  const path = `${finalPath}.part`;
  const kept = await reopen(path);
  if (kept) return kept;
  const found = await lstatOrNone(path);
  if (found) {
    const aside = `${path}.set-aside-${randomHex(4)}`;
    await rename(path, aside);
    warn(`warning: ${path} is ${notOwnPlainFile(found) ?? 'not a file wes can resume'}; moved it to ${aside} and starting the download afresh`);
  }
  const fresh = await createFresh(finalPath);
  await fresh.handle.close();
  try {
    await rename(fresh.path, path);
  } catch (err) {
    await unlink(fresh.path).catch(() => undefined);
    throw err;
  }
  const opened = await reopen(path);
  if (!opened) throw new Error(`${path} changed while it was being created`);
  return opened;
}
