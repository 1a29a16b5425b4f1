// Remembers, per profile and router URL, which router routes answered there (generation.ts), for a
// day: a router changes generation rarely, and one that stops answering the remembered routes is
// discovered again at once. A damaged, foreign or old entry is ignored; a failed write costs only a
// discovery next time.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProfileStore } from '../../config/store.js';
import { writeFileSafely } from '../../files/safe-file.js';
import { ROUTER_APIS, type RouterApi } from '../../protocol/models.js';
import { sha256Hex } from '../../util/sha256-hex.js';
import type { GenerationMemory } from './generation.js';

export const GENERATION_CACHE_TTL_MS = 24 * 60 * 60 * 1000;

interface Entry {
  router_url: string;
  router_api: RouterApi;
  found_at: number;
}

export class GenerationCache implements GenerationMemory {
  constructor(
    private readonly store: ProfileStore,
    private readonly profile: string,
    private readonly now: () => number = Date.now,
  ) {}

  private path(routerUrl: string): string {
    return join(this.store.cacheDir(this.profile, 'router-api'), `${sha256Hex(routerUrl).slice(0, 32)}.json`);
  }

  async read(routerUrl: string): Promise<RouterApi | undefined> {
    let entry: Partial<Entry> | null;
    try {
      entry = JSON.parse(await readFile(this.path(routerUrl), 'utf8')) as Partial<Entry> | null;
    } catch {
      return undefined;
    }
    if (typeof entry !== 'object' || entry === null) return undefined;
    const fresh = typeof entry.found_at === 'number' && this.now() - entry.found_at >= 0 && this.now() - entry.found_at < GENERATION_CACHE_TTL_MS;
    const known = (ROUTER_APIS as readonly unknown[]).includes(entry.router_api);
    return entry.router_url === routerUrl && fresh && known ? entry.router_api : undefined;
  }

  async write(routerUrl: string, api: RouterApi): Promise<void> {
    const entry: Entry = { router_url: routerUrl, router_api: api, found_at: this.now() };
    await writeFileSafely(this.path(routerUrl), JSON.stringify(entry), { mode: 0o600 });
  }
}
