// wes assets download <id> [path]: the asset's bytes, blake3-checked, to a file or into a folder.
import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { downloadAsset } from '../../clients/jobs/asset-download.js';
import { safeFileName } from '../../files/safe-name.js';
import { existingPolicy } from '../../files/existing.js';
import { reportKept, type KeptPart } from '../../files/kept.js';
import { checkFileTarget, checkFolderTarget } from '../../files/targets.js';
import { shellWord } from '../../render/shell-word.js';
import type { AssetsDownloadOptions } from './options.js';

async function isFolder(path: string): Promise<boolean> {
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

export async function run(f: Factory, args: string[], opts: AssetsDownloadOptions): Promise<number> {
  const existing = existingPolicy(opts);
  const path = args[1];
  if (path !== undefined) await ((await isFolder(path)) ? checkFolderTarget(path, 'the folder') : checkFileTarget(path, 'the file'));
  const client = new JobsClient(f.http());
  const record = await client.getAsset(args[0]!);
  const filePath = record.asset.file_path ?? undefined;
  const { dir, name } = await target(path, filePath?.split('/').pop(), record.asset.id);
  const kept: KeptPart[] = [];
  const resume = ['wes', 'assets', 'download', record.asset.id, ...(path === undefined ? [] : [path])].map(shellWord).join(' ');
  const saved = await downloadAsset(client, record, dir, name, { existing, warn: (line) => f.io.warn(line), onKept: (part) => kept.push(part) }).finally(() =>
    reportKept(f.io, kept, resume),
  );
  if (f.io.json) f.io.printJson(saved);
  else f.io.println(saved.path);
  if (saved.kept === 'same') f.io.info(`✓ ${saved.path} already holds these bytes (blake3 checked); nothing downloaded`);
  else if (saved.kept) f.io.info(`kept the existing ${saved.path} as it is (--skip-existing)`);
  else f.io.info(`✓ saved ${saved.bytes} bytes${saved.verified ? ' (blake3 checked)' : ' (not verified by hash: the service reported none; size checked against the transfer)'}`);
  if (saved.declared_size_bytes !== undefined) f.io.info(`note: the asset record declared ${saved.declared_size_bytes} bytes; the whole transfer delivered ${saved.bytes}`);
  return 0;
}
