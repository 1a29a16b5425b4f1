// Input-schema documents cached per profile and model with their ETag, in a private folder of
// the config directory (folder 0700, files 0600). An entry remembers the router URL it came
// from, so pointing the profile at another router does not serve a foreign document.
import { readFile } from 'node:fs/promises';
import { writeFileSafely } from '../../files/safe-file.js';
import { join } from 'node:path';
import type { ProfileStore } from '../../config/store.js';
import type { ModelRef } from '../../protocol/model-ids.js';
import { isObject } from '../../protocol/openapi-document.js';

export interface CachedSchema {
  etag: string | undefined;
  fetchedAt: string;
  /** The document bytes as the router sent them. */
  text: string;
}

interface CacheFile {
  router_url: string;
  etag: string | null;
  fetched_at: string;
  document: string;
}

export class SchemaCache {
  constructor(
    private readonly store: ProfileStore,
    private readonly profile: string,
    private readonly routerUrl: string,
  ) {}

  /** Segments are safe file names: the id rules allow only [a-z0-9._-] without leading dots. */
  private file(ref: ModelRef): string {
    return join(this.store.cacheDir(this.profile, 'schemas', ref.provider), `${ref.model}.json`);
  }

  async read(ref: ModelRef): Promise<CachedSchema | undefined> {
    let raw: string;
    try {
      raw = await readFile(this.file(ref), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const entry = JSON.parse(raw) as Partial<CacheFile>;
      if (!isObject(entry) || entry.router_url !== this.routerUrl || typeof entry.document !== 'string') return undefined;
      return { etag: typeof entry.etag === 'string' ? entry.etag : undefined, fetchedAt: String(entry.fetched_at ?? ''), text: entry.document };
    } catch {
      return undefined; // a damaged cache entry is refetched
    }
  }

  async write(ref: ModelRef, etag: string | undefined, text: string): Promise<void> {
    const path = this.file(ref);
    const entry: CacheFile = { router_url: this.routerUrl, etag: etag ?? null, fetched_at: new Date().toISOString(), document: text };
    await writeFileSafely(path, JSON.stringify(entry), { mode: 0o600 });
  }
}
