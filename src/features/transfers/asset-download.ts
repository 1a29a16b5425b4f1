// Saving an asset's bytes (`wes assets download`): to a file, or into a folder under the asset's
// own safe name; blake3-checked; a download cut short keeps its .part, told with the command that
// resumes it.
import type { HashSetting } from '../../util/blake3-setting.js';
import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { FetchedAsset, JobsClient } from '../../clients/jobs/client.js';
import { downloadAsset } from '../../clients/jobs/asset-download.js';
import type { SavedOutput } from '../../clients/jobs/download.js';
import type { ExistingPolicy } from '../../files/existing.js';
import { keptNotices, type KeptPart } from '../../files/kept.js';
import { safeFileName } from '../../files/safe-name.js';
import { shellWord } from '../../util/shell-word.js';
import type { Reporter } from '../reporter.js';

export async function isFolder(path: string): Promise<boolean> {
  return /[\\/]$/.test(path) || (await stat(path).then((s) => s.isDirectory(), () => false));
}

/**
 * PATH as a folder and a file name: a folder (existing, or written with a trailing /) gets the
 * asset's own safe name: the last part of its `file_path`, else `asset-<id>`.
 */
async function target(path: string | undefined, assetName: string | undefined, assetId: string): Promise<{ dir: string; name: string }> {
  const safe = safeFileName(assetName ?? '', `asset-${assetId}`);
  if (path === undefined) return { dir: '.', name: safe };
  if (await isFolder(path)) return { dir: path, name: safe };
  return { dir: dirname(resolve(path)), name: basename(path) };
}

/** The asset `record` saved at `path` (default: its name in the current folder). */
export async function saveAsset(client: JobsClient, record: FetchedAsset, path: string | undefined, existing: ExistingPolicy, reporter: Reporter, hashing?: HashSetting): Promise<SavedOutput> {
  const filePath = record.asset.file_path ?? undefined;
  const { dir, name } = await target(path, filePath?.split('/').pop(), record.asset.id);
  const kept: KeptPart[] = [];
  const resume = ['wes', 'assets', 'download', record.asset.id, ...(path === undefined ? [] : [path])].map(shellWord).join(' ');
  return downloadAsset(client, record, dir, name, { existing, warn: (line) => reporter.notice('warn', line), onKept: (part) => kept.push(part), hashing }).finally(() => {
    for (const line of keptNotices(kept, resume)) reporter.notice('notice', line);
  });
}
