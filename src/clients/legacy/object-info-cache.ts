// object_info cached per base URL in the profile's cache folder (0700; files 0600), so converting
// a folder of workflows asks the server once. Written under a fresh exclusive name (never through
// a link someone planted) and renamed into place; a damaged or foreign entry is simply refetched.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProfileStore } from '../../config/store.js';
import { writeFileSafely } from '../../files/safe-file.js';
import { isRecord } from '../shared/response-check.js';
import { sha256Hex } from '../../util/sha256-hex.js';

export interface CachedObjectInfo {
  fetchedAt: string;
  /** object_info as the server sent it. */
  text: string;
}

export class ObjectInfoCache {
  constructor(
    private readonly store: ProfileStore,
    private readonly profile: string,
    private readonly baseUrl: string,
  ) {}

  private file(): string {
    const key = sha256Hex(this.baseUrl).slice(0, 32);
    return join(this.store.cacheDir(this.profile, 'object-info'), `${key}.json`);
  }

  async read(): Promise<CachedObjectInfo | undefined> {
    let raw: string;
    try {
      raw = await readFile(this.file(), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const entry: unknown = JSON.parse(raw);
      if (!isRecord(entry) || entry.base_url !== this.baseUrl || typeof entry.object_info !== 'string') return undefined;
      return { fetchedAt: String(entry.fetched_at ?? ''), text: entry.object_info };
    } catch {
      return undefined;
    }
  }

  async write(text: string): Promise<void> {
    const entry = { base_url: this.baseUrl, fetched_at: new Date().toISOString(), object_info: text };
    await writeFileSafely(this.file(), JSON.stringify(entry), { mode: 0o600 });
  }
}
