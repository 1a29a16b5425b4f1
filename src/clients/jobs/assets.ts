// Puts a local file on the service as an asset with as few bytes on the wire as possible: hash it
// (blake3, streaming), ask for an asset over that blob (`from-hash`), and upload the file only
// when the service holds no such blob, sending the hash so the service can check it. One run
// never sends the same file twice.
import { basename, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { ApiError, UsageError } from '../../errors.js';
import { blake3File } from '../../files/blake3.js';
import { checkLocalFile } from '../../files/local-file.js';
import { guessMediaType } from '../../files/media-type.js';
import type { FetchedAsset, JobsClient } from './client.js';

export interface PlacedAsset extends FetchedAsset {
  /** The blake3 of the local file, `blake3:<hex>`. */
  hash: string;
  /** Whether the file's bytes were sent (false: the service already held the blob). */
  uploaded: boolean;
  path: string;
}

/** Hears one upload as it goes (a progress line); told when it is over, however it ended. */
export interface UploadObserver {
  /** Bytes of the file handed to the connection so far (back to 0 when a request is retried). */
  sent(bytes: number): void;
  done(): void;
}

export interface PlaceOptions {
  contentType?: string;
  /** The name the asset is recorded under (default: the file's base name). */
  filePath?: string;
  /** Called when the file's bytes must be sent (the service lacks them). */
  observeUpload?: (path: string, size: number) => Promise<UploadObserver | undefined>;
}

export class AssetPlacer {
  private readonly placed = new Map<string, Promise<PlacedAsset>>();

  constructor(private readonly client: JobsClient) {}

  place(path: string, options: PlaceOptions = {}): Promise<PlacedAsset> {
    const key = JSON.stringify([resolve(path), options.contentType ?? null, options.filePath ?? null]);
    let pending = this.placed.get(key);
    if (!pending) {
      pending = this.placeOnce(path, options);
      this.placed.set(key, pending);
    }
    return pending;
  }

  private async placeOnce(path: string, options: PlaceOptions): Promise<PlacedAsset> {
    const size = await checkLocalFile(path);
    const hash = await blake3File(path).catch((err: Error) => {
      throw new UsageError(`cannot read ${path}: ${err.message}`);
    });
    const filePath = options.filePath ?? basename(path);
    try {
      const found = await this.client.assetFromHash({ hash, file_path: filePath }, randomUUID());
      return { ...found, hash, uploaded: false, path };
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'blob_not_found') throw err;
    }
    const contentType = options.contentType ?? guessMediaType(path);
    const observer = await options.observeUpload?.(path, size);
    try {
      const created = await this.client.uploadAsset({ path, contentType, filePath, expectedHash: hash, idempotencyKey: randomUUID(), onProgress: observer && ((sent) => observer.sent(sent)) });
      return { ...created, hash, uploaded: true, path };
    } finally {
      observer?.done();
    }
  }
}
