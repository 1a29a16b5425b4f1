// Content-addressed blobs on disk (blake3, streamed while written) and the asset records over them.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate } from 'node:timers/promises';
import { createBlake3 } from '../../util/blake3.js';
import type { BlobStore, NewAssetFields, StoredOutput } from '../contract.js';
import { outputKind } from './media-type.js';

const YIELD_EVERY_BYTES = 4 << 20;

export const HASH_PATTERN = /^blake3:[0-9a-f]{64}$/;

/** A pass-through that hashes what flows through it. */
export async function blake3Tap(): Promise<{ tap: Transform; digest: () => string; size: () => number }> {
  const hasher = await createBlake3();
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hasher.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  return { tap, digest: () => `blake3:${hasher.hex()}`, size: () => size };
}

/** Hashes a stream to its end without keeping it. */
export async function blake3OfStream(source: Readable): Promise<{ hash: string; size: number }> {
  const hasher = await createBlake3();
  let size = 0;
  let sinceTurn = 0;
  for await (const chunk of source) {
    hasher.update(chunk as Buffer);
    size += (chunk as Buffer).length;
    sinceTurn += (chunk as Buffer).length;
    // A generated source (a SaveBytes output) never waits for I/O, so without a turn of the event
    // loop now and then a multi-GiB commit would hold every other request until it ends.
    if (sinceTurn >= YIELD_EVERY_BYTES) {
      sinceTurn = 0;
      await setImmediate();
    }
  }
  return { hash: `blake3:${hasher.hex()}`, size };
}

export class FileBlobStore implements BlobStore {
  private readonly sizes = new Map<string, number>();
  private readonly assets = new Map<string, StoredOutput>();

  /** `dir` is where blobs and in-flight `incoming-*` temp files live. */
  private constructor(readonly dir: string) {}

  static async create(): Promise<FileBlobStore> {
    return new FileBlobStore(await mkdtemp(join(tmpdir(), 'wes-dev-blobs-')));
  }

  private pathOf(hash: string): string {
    return join(this.dir, hash.replace(/^blake3:/, ''));
  }

  async put(source: Readable, through: Transform[] = []): Promise<{ hash: string; size: number; created: boolean }> {
    // The hasher is made asynchronously; a source that fails meanwhile (a multipart body cut short)
    // must already have an 'error' listener, or the process dies. pipeline sees the stored error.
    const parked = (): void => undefined;
    source.on('error', parked);
    const temp = join(this.dir, `incoming-${randomUUID()}`);
    try {
      const { tap, digest, size } = await blake3Tap();
      try {
        await pipeline([source, ...through, tap, createWriteStream(temp)]);
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
      return await this.keep(temp, digest(), size());
    } finally {
      source.off('error', parked);
    }
  }

  /** Moves a fully written temp file to its content address (or drops it when the blob exists). */
  private async keep(temp: string, hash: string, size: number): Promise<{ hash: string; size: number; created: boolean }> {
    if (this.sizes.has(hash)) {
      await rm(temp, { force: true });
      return { hash, size, created: false };
    }
    await rename(temp, this.pathOf(hash));
    this.sizes.set(hash, size);
    return { hash, size, created: true };
  }

  /** Forgets a blob (an upload refused after it was stored). */
  async remove(hash: string): Promise<void> {
    this.sizes.delete(hash);
    await rm(this.pathOf(hash), { force: true });
  }

  has(hash: string): boolean {
    return this.sizes.has(hash);
  }

  size(hash: string): number | undefined {
    return this.sizes.get(hash);
  }

  open(hash: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(hash), range ? { start: range.start, end: range.end } : {});
  }

  createAsset(fields: NewAssetFields): StoredOutput {
    const size = this.sizes.get(fields.hash);
    if (size === undefined) throw new Error(`no blob ${fields.hash}`);
    const now = new Date();
    const id = randomUUID();
    // A record minted from a hash alone has no path; its name is its id.
    const name = fields.file_path?.split('/').pop() || id;
    const asset: StoredOutput = {
      id,
      node_id: '',
      name,
      type: outputKind(fields.content_type, name),
      content_type: fields.content_type,
      size_bytes: size,
      blobHash: fields.hash,
      hashVisibleAt: now.getTime(), // the server hashed the upload as it arrived
      job_id: null,
      file_path: fields.file_path,
      created_at: now.toISOString(),
      subfolder: '',
      folderType: 'output',
      ...(fields.tags !== undefined ? { tags: fields.tags } : {}),
      ...(fields.expiresAt !== undefined ? { expiresAt: fields.expiresAt } : {}),
    };
    this.assets.set(asset.id, asset);
    return asset;
  }

  /** The records still within their retention (a lapsed one is forgotten here). */
  private *live(): Generator<StoredOutput> {
    const now = Date.now();
    for (const asset of this.assets.values()) {
      if (asset.expiresAt !== undefined && asset.expiresAt <= now) this.assets.delete(asset.id);
      else yield asset;
    }
  }

  getAsset(id: string): StoredOutput | undefined {
    const asset = this.assets.get(id);
    if (asset?.expiresAt !== undefined && asset.expiresAt <= Date.now()) {
      this.assets.delete(id);
      return undefined;
    }
    return asset;
  }

  deleteAsset(id: string): boolean {
    return this.getAsset(id) !== undefined && this.assets.delete(id);
  }

  /** The newest asset record with this path. */
  findAssetByPath(filePath: string): StoredOutput | undefined {
    let found: StoredOutput | undefined;
    for (const asset of this.live()) if (asset.file_path === filePath) found = asset;
    return found;
  }

  /**
   * The newest record over this hash that matches the given fields (a field left out matches
   * any value), so a from-hash that names nothing new returns the record as it is.
   */
  findSameAsset(fields: { hash: string; file_path?: string; content_type?: string }): StoredOutput | undefined {
    let found: StoredOutput | undefined;
    for (const asset of this.live()) {
      if (asset.blobHash !== fields.hash) continue;
      if (fields.file_path !== undefined && asset.file_path !== fields.file_path) continue;
      if (fields.content_type !== undefined && asset.content_type !== fields.content_type) continue;
      found = asset;
    }
    return found;
  }


  async close(): Promise<void> {
    // A job stopped by the close may still be writing its output: retry what that races.
    await rm(this.dir, { recursive: true, force: true, maxRetries: 5 });
  }
}
