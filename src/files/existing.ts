// What to do about a file already at a target name, as gh does: by default an existing file
// with other bytes stops the command; the same bytes (blake3 equal, hashed here without following
// any link) need no transfer; --clobber replaces, --skip-existing keeps. A link at the target is
// an existing file whose bytes are never read.
import { constants } from 'node:fs';
import { updateFromFile } from '../util/blake3.js';
import { createBlake3, formatBlake3, sameHash } from './blake3.js';
import { dropCommittedPart } from './part-file.js';
import { FileExistsError, lstatOrNone, notOwnPlainFile, openOwnFile, writeFileSafely } from './safe-file.js';

import type { ExistingPolicy } from './existing-policy.js';
import type { HashSetting } from '../util/blake3-setting.js';

export { existingPolicy, type ExistingPolicy } from './existing-policy.js';

/** blake3 of a plain file of ours, read through a handle opened without following links. */
export async function hashOwnFile(path: string, hashing?: HashSetting): Promise<string | undefined> {
  const opened = await openOwnFile(path, constants.O_RDONLY);
  if (!opened) return undefined;
  try {
    const hasher = await createBlake3(hashing);
    await updateFromFile(hasher, opened.handle);
    return formatBlake3(hasher);
  } finally {
    await opened.handle.close();
  }
}

export type ExistingVerdict =
  | { action: 'write' }
  /** Leave the file as it is: the same bytes (verified) or --skip-existing. */
  | { action: 'keep'; hash: string | null; bytes: number; same: boolean };

/**
 * Decides about `path` before anything is fetched. Throws FileExistsError when the policy is
 * 'refuse' and the file there is (or may be) different.
 */
export async function checkExisting(path: string, policy: ExistingPolicy, expected: { hash?: string | null; size?: number | null } = {}, hashing?: HashSetting): Promise<ExistingVerdict> {
  let stats = await lstatOrNone(path);
  // a download killed as it was being named is a finished file
  if (stats && (await dropCommittedPart(path, stats))) stats = await lstatOrNone(path);
  if (!stats) return { action: 'write' };
  // --clobber replaces a file, never a folder: a hint to pass it would send the user round in a circle.
  if (stats.isDirectory()) throw new FileExistsError(path, 'is a folder', 'move or rename the folder, or write the file elsewhere');
  const plain = notOwnPlainFile(stats) === undefined;
  const sizeFits = expected.size == null || expected.size === stats.size;
  const hash = plain && (policy === 'skip' || (expected.hash && sizeFits)) ? await hashOwnFile(path, hashing) : undefined;
  if (hash && expected.hash && sameHash(hash, expected.hash)) return { action: 'keep', hash, bytes: stats.size, same: true };
  if (policy === 'skip') return { action: 'keep', hash: hash ?? null, bytes: stats.size, same: false };
  if (policy === 'clobber') return { action: 'write' };
  throw new FileExistsError(path, stats.isSymbolicLink() ? 'already exists (a symbolic link)' : expected.hash ? 'already exists with other bytes' : 'already exists');
}

/** What writeUnderPolicy did: wrote the file, or left an existing one as it was (same bytes, or --skip-existing). */
export type WholeFileOutcome = 'written' | 'same' | 'skip-existing';

/**
 * Writes bytes known in full (a command's own output, not a download) under the policy: the same
 * bytes already there are kept untouched, other bytes stop the command unless --clobber replaces
 * or --skip-existing keeps them. A file that appears meanwhile is never replaced without --clobber.
 */
export async function writeUnderPolicy(path: string, data: string | Uint8Array, policy: ExistingPolicy, hashing?: HashSetting): Promise<WholeFileOutcome> {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const hasher = await createBlake3(hashing);
  hasher.update(bytes);
  const verdict = await checkExisting(path, policy, { hash: formatBlake3(hasher), size: bytes.length }, hashing);
  if (verdict.action === 'keep') return verdict.same ? 'same' : 'skip-existing';
  await writeFileSafely(path, bytes, { replace: policy === 'clobber' });
  return 'written';
}
