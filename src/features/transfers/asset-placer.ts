// Puts a local file on the service as an asset with as few bytes on the wire as possible: hash it
// (blake3, streaming), ask whether the service holds that blob (`HEAD .../by-hash/{hash}`) and
// mint an asset over it (`from-hash`), and upload the file only when it does not, sending the
// hash so the service can check it. An upload whose answer was lost is not sent again under its
// spent single-use key: the blob is looked for by hash, and minted from when it arrived. One run
// never sends the same file twice.
import type { HashSetting } from '../../util/blake3-setting.js';
import { basename, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { ApiError, UsageError } from '../../errors.js';
import { blake3File } from '../../files/blake3.js';
import { checkLocalFile } from '../../files/local-file.js';
import { guessMediaType } from '../../files/media-type.js';
import type { FetchedAsset, JobsClient, UploadObserver } from '../../clients/jobs/client.js';
export type { UploadObserver } from '../../clients/jobs/client.js';
import { sendKeyed } from '../keyed/verdict.js';
import { assetReference, type AssetReference } from '../../protocol/jobs.js';

export interface PlacedAsset extends FetchedAsset {
  /** The blake3 of the local file, `blake3:<hex>`. */
  hash: string;
  /** Whether the file's bytes were sent (false: the service already held the blob). */
  uploaded: boolean;
  path: string;
  /** Set when an earlier upload of these bytes, stored under another hash, was found by its asset id and reused. */
  reusedUpload?: true;
}

export interface PlaceOptions {
  contentType?: string;
  /** The name the asset is recorded under (default: the file's base name). */
  filePath?: string;
  /** Called when the file's bytes must be sent (the service lacks them). */
  observeUpload?: (path: string, size: number) => Promise<UploadObserver | undefined>;
  /** Category tags recorded on the asset (`tags`). */
  tags?: string[];
  /** Retention override in seconds (`expires_in`, 60..604800). */
  expiresIn?: number;
}

export class AssetPlacer {
  private readonly placed = new Map<string, Promise<PlacedAsset>>();

  /** `hashing`: WES_BLAKE3 of the run (default the process's environment). */
  constructor(
    readonly client: JobsClient,
    private readonly hashing?: HashSetting,
  ) {}

  place(path: string, options: PlaceOptions = {}): Promise<PlacedAsset> {
    const key = JSON.stringify([resolve(path), options.contentType ?? null, options.filePath ?? null, options.tags ?? null, options.expiresIn ?? null]);
    let pending = this.placed.get(key);
    if (!pending) {
      pending = this.placeOnce(path, options);
      this.placed.set(key, pending);
    }
    return pending;
  }

  private async placeOnce(path: string, options: PlaceOptions): Promise<PlacedAsset> {
    const size = await checkLocalFile(path);
    const hash = await blake3File(path, this.hashing).catch((err: Error) => {
      throw new UsageError(`cannot read ${path}: ${err.message}`);
    });
    const filePath = options.filePath ?? basename(path);
    const minted = await this.mintFromHash(hash, filePath, options);
    if (minted) return { ...minted, hash, uploaded: false, path };
    const earlier = await this.earlierUpload(hash);
    if (earlier) return { ...earlier, hash, uploaded: false, path, reusedUpload: true };
    const contentType = options.contentType ?? guessMediaType(path);
    const observer = await options.observeUpload?.(path, size);
    const upload = () =>
      this.client.uploadAsset({
        path,
        contentType,
        filePath,
        expectedHash: hash,
        tags: options.tags,
        expiresIn: options.expiresIn,
        idempotencyKey: randomUUID(),
        onProgress: observer && ((sent) => observer.sent(sent)),
      });
    try {
      // The answer was lost: the bytes are on the service when the blob is (found by hash); else
      // they never arrived, nothing was made, and a new upload (a new key) is safe.
      const verdict = await sendKeyed(upload, {
        signal: this.client.http.signal,
        find: async () => {
          const found = await this.mintFromHash(hash, filePath, options);
          return found ? { kind: 'found', value: found } : { kind: 'absent', proven: true, searched: 1 };
        },
      });
      if (verdict.kind === 'answered') return await this.noteStoredHash({ ...verdict.value, hash, uploaded: true, path });
      if (verdict.kind === 'found') return { ...verdict.value, hash, uploaded: true, path };
      if (verdict.kind === 'proven-absent') return { ...(await upload()), hash, uploaded: true, path };
      throw verdict.error;
    } finally {
      observer?.done();
    }
  }

  /**
   * The asset an earlier run's upload of these bytes became, when the service stored them under
   * another hash (found by its id; undefined when none is remembered or it is gone).
   */
  private async earlierUpload(hash: string): Promise<FetchedAsset | undefined> {
    const id = await this.client.recallUpload(hash);
    if (id === undefined) return undefined;
    try {
      return await this.client.getAsset(id);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  }

  /** A service that stored the bytes under another hash cannot find them by ours next time: remember the asset. */
  private async noteStoredHash(placed: PlacedAsset): Promise<PlacedAsset> {
    if (placed.asset.hash && placed.asset.hash !== placed.hash) await this.client.rememberUpload(placed.hash, placed.asset.id);
    return placed;
  }

  /** An asset over the blob with this hash, when the service holds it (undefined when it does not). */
  private async mintFromHash(hash: string, filePath: string, options: PlaceOptions): Promise<FetchedAsset | undefined> {
    if (!(await this.client.blobExists(hash))) return undefined;
    try {
      return await this.client.assetFromHash({ hash, file_path: filePath, ...(options.tags ? { tags: options.tags } : {}), ...(options.expiresIn !== undefined ? { expires_in: options.expiresIn } : {}) });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'blob_not_found') return undefined;
      throw err;
    }
  }
}

/** What goes into a workflow input for an asset: the typed reference, and the placing of a local file. */
export interface PlacedReference {
  reference: AssetReference;
  /** Set for a local file (`@PATH`): whether its bytes were sent, its hash. */
  placed?: PlacedAsset;
}

/**
 * The typed reference for an input that names an asset: a local file is placed first (uploaded
 * unless the service holds its bytes), an asset id is looked up (so a wrong id stops here, before
 * the submit, and the reference carries the record's hash and path as hints).
 */
export async function referenceFor(placer: AssetPlacer, input: { kind: 'file'; path: string } | { kind: 'asset'; id: string }, options: PlaceOptions = {}): Promise<PlacedReference> {
  if (input.kind === 'asset') return { reference: assetReference((await placer.client.getAsset(input.id)).asset) };
  const placed = await placer.place(input.path, options);
  return { reference: assetReference({ ...placed.asset, hash: placed.asset.hash ?? placed.hash }), placed };
}
