// Remembers, per profile and base URL, which asset an upload of local bytes became when the service
// stored them under another hash (Comfy Cloud strips GPS/XMP/IPTC metadata from images, so the
// blob lookup by the local hash never finds them). The next upload of the same bytes reads that
// asset by id first instead of sending them again. A damaged or foreign file is ignored; a failed
// write costs one more upload.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProfileStore } from '../../config/store.js';
import { writeFileSafely } from '../../files/safe-file.js';
import { sha256Hex } from '../../util/sha256-hex.js';
import { isRecord } from '../shared/response-check.js';

export interface UploadMemory {
  /** The asset id an earlier upload of bytes with this local blake3 became at the base URL. */
  recall(baseUrl: string, localHash: string): Promise<string | undefined>;
  remember(baseUrl: string, localHash: string, assetId: string): Promise<void>;
}

export class UploadCache implements UploadMemory {
  constructor(
    private readonly store: ProfileStore,
    private readonly profile: string,
  ) {}

  private path(baseUrl: string): string {
    return join(this.store.cacheDir(this.profile, 'uploads'), `${sha256Hex(baseUrl).slice(0, 32)}.json`);
  }

  private async assets(baseUrl: string): Promise<Record<string, string>> {
    let entry: unknown;
    try {
      entry = JSON.parse(await readFile(this.path(baseUrl), 'utf8'));
    } catch {
      return {};
    }
    if (!isRecord(entry) || entry.base_url !== baseUrl || !isRecord(entry.assets)) return {};
    return Object.fromEntries(Object.entries(entry.assets).filter((pair): pair is [string, string] => typeof pair[1] === 'string'));
  }

  async recall(baseUrl: string, localHash: string): Promise<string | undefined> {
    return (await this.assets(baseUrl))[localHash];
  }

  async remember(baseUrl: string, localHash: string, assetId: string): Promise<void> {
    const assets = { ...(await this.assets(baseUrl)), [localHash]: assetId };
    await writeFileSafely(this.path(baseUrl), JSON.stringify({ base_url: baseUrl, assets }), { mode: 0o600 });
  }
}
