// Files going up: a job API asset (hashed first, sent only when the service lacks the bytes,
// asset-placer.ts) and a v1 input upload, each shown as it goes through the command's
// TransferReporter.
import type { HashSetting } from '../../util/blake3-setting.js';
import { AssetPlacer, type PlacedAsset, type PlaceOptions, type UploadObserver } from './asset-placer.js';
import type { JobsClient } from '../../clients/jobs/client.js';
import type { LegacyClient, MaskUploadOptions } from '../../clients/legacy/client.js';
import type { V1UploadResult } from '../../protocol/legacy.js';
import type { TransferReporter } from '../reporter.js';

/** What hears an upload of `path` (`size` bytes): the reporter's transfer, when it shows one. */
export async function observeUpload(reporter: TransferReporter, path: string, size: number): Promise<UploadObserver | undefined> {
  const shown = await reporter.transfer({ verb: 'uploading', sizes: [size] });
  if (!shown) return undefined;
  return { sent: (bytes) => shown.progress({ name: path, bytes, total: size }), done: () => shown.done() };
}

/** Said when the bytes were not sent because an earlier run's upload of them (stored under another hash) still stands. */
export const REUSED_UPLOAD = 'not sent again: reusing the earlier upload (the service stored it under another hash) of';

/** `wes assets upload`: the file as an asset, its bytes sent only when the service lacks them. */
export function uploadAsset(client: JobsClient, path: string, options: Omit<PlaceOptions, 'observeUpload'>, reporter: TransferReporter, hashing?: HashSetting): Promise<PlacedAsset> {
  return new AssetPlacer(client, hashing).place(path, { ...options, observeUpload: (file, size) => observeUpload(reporter, file, size) });
}

/** `wes legacy upload`: an input image (or a mask of an earlier one) of `size` bytes, already checked. */
export async function uploadInput(client: LegacyClient, upload: { path: string; size: number; type: 'input' | 'temp'; overwrite: boolean; originalRef?: MaskUploadOptions['originalRef'] }, reporter: TransferReporter): Promise<V1UploadResult> {
  const { path, type, originalRef } = upload;
  const shown = await observeUpload(reporter, path, upload.size);
  const onProgress = shown && ((sent: number) => shown.sent(sent));
  return (originalRef ? client.uploadMask({ path, type, originalRef, onProgress }) : client.upload({ path, type, overwrite: upload.overwrite, onProgress })).finally(() => shown?.done());
}
