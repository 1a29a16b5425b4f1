// wes assets download <id> [path]: the asset's bytes, blake3-checked, to a file or into a folder.
import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../surfaces/jobs/client.js';
import { downloadAsset } from '../../surfaces/jobs/asset-download.js';
import { safeFileName } from '../../files/safe-name.js';

/** PATH as a folder and a file name: a folder (existing, or written with a trailing /) gets the asset's own safe name. */
async function target(path: string | undefined, assetName: string, assetId: string): Promise<{ dir: string; name: string }> {
  const safe = safeFileName(assetName, `asset-${assetId}`);
  if (path === undefined) return { dir: '.', name: safe };
  const isDir = /[\\/]$/.test(path) || (await stat(path).then((s) => s.isDirectory(), () => false));
  if (isDir) return { dir: path, name: safe };
  return { dir: dirname(resolve(path)), name: basename(path) };
}

export async function run(f: Factory, args: string[]): Promise<number> {
  const client = new JobsClient(f.http());
  const record = await client.getAsset(args[0]!);
  const { dir, name } = await target(args[1], record.asset.name, record.asset.id);
  const saved = await downloadAsset(client, record, dir, name);
  if (f.io.json) f.io.printJson(saved);
  else f.io.println(saved.path);
  f.io.info(`✓ saved ${saved.bytes} bytes${saved.verified ? ' (blake3 checked)' : ' (no hash reported yet: not checked)'}`);
  return 0;
}
