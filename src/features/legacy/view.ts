// Saving the file behind a v1 output reference (`wes legacy view -o FILE`): a file already there
// with the same bytes is kept (the served bytes are hashed, nothing written); with other bytes it
// stops the command unless the policy says otherwise. A transfer cut short keeps its .part.
import type { HashSetting } from '../../util/blake3-setting.js';
import { basename, dirname } from 'node:path';
import type { LegacyClient, ViewRef } from '../../clients/legacy/client.js';
import type { ExistingPolicy } from '../../files/existing.js';
import { keptNotices, type KeptPart } from '../../files/kept.js';
import { FileExistsError, makeFolders } from '../../files/safe-file.js';
import type { SavedFile } from '../../files/save.js';
import { shellWord } from '../../util/shell-word.js';
import type { Reporter } from '../reporter.js';
import { holdsServedBytes, saveViewed } from './files.js';

export type ViewedFile = { kind: 'same'; path: string; bytes: number; hash: string } | { kind: 'saved'; file: SavedFile };

export async function saveViewedFile(client: LegacyClient, ref: ViewRef, path: string, existing: ExistingPolicy, reporter: Reporter, hashing?: HashSetting): Promise<ViewedFile> {
  if (existing === 'refuse') {
    const compared = await holdsServedBytes(client, ref, path, hashing);
    if (compared && !compared.same) throw new FileExistsError(path, 'already exists with other bytes');
    if (compared) return { kind: 'same', path, bytes: compared.bytes, hash: compared.hash };
  }
  const kept: KeptPart[] = [];
  await makeFolders(dirname(path));
  const file = await saveViewed(client, ref, dirname(path), basename(path), {
    existing,
    warn: (line) => reporter.notice('warn', line),
    onKept: (part) => kept.push(part),
    hashing,
  }).finally(() => {
    for (const line of keptNotices(kept, `the same command (${['wes', 'legacy', 'view', ref.filename, '-o', path].map(shellWord).join(' ')})`)) reporter.notice('notice', line);
  });
  return { kind: 'saved', file };
}
