// object_info cached per base URL in the profile's cache folder (0700; files 0600), so converting
// a folder of workflows asks the server once. Written under a fresh exclusive name (never through
// a link someone planted) and renamed into place; a damaged or foreign entry is simply refetched.
import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProfileStore } from '../../config/store.js';
import { isRecord } from '../shared/response-check.js';

export interface CachedObjectInfo {
  fetchedAt: string;
  /** object_info as the server sent it. */
  text: string;
}

const CREATE_EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

export class ObjectInfoCache {
  constructor(
    private readonly store: ProfileStore,
    private readonly profile: string,
    private readonly baseUrl: string,
  ) {}

  private file(): string {
    const key = createHash('sha256').update(this.baseUrl).digest('hex').slice(0, 32);
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
    const path = this.file();
    const temp = `${path}.${randomBytes(8).toString('hex')}.tmp`;
    const entry = { base_url: this.baseUrl, fetched_at: new Date().toISOString(), object_info: text };
    const handle = await open(temp, CREATE_EXCLUSIVE, 0o600);
    try {
      await handle.writeFile(JSON.stringify(entry));
      await handle.close();
      await rename(temp, path);
    } catch (err) {
      await handle.close().catch(() => undefined);
      await rm(temp, { force: true });
      throw err;
    }
  }
}
