// Remembers, per v1 URL (the engine URL), which v1 server answered there, for a few minutes: long
// enough that a script's many commands probe once, short enough that starting a different server
// on the same port is noticed soon. Beside it, whether the base URL of that moment serves the job
// API v2 (a self-hosted job API server in front of an engine). A damaged or foreign entry is
// ignored; a failed write only costs a probe.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProfileStore } from '../../config/store.js';
import { writeFileSafely } from '../../files/safe-file.js';
import type { EngineIdentity, EngineKind } from './engine.js';
import { isRecord } from '../shared/response-check.js';
import { sha256Hex } from '../../util/sha256-hex.js';

export const ENGINE_CACHE_TTL_MS = 5 * 60 * 1000;

/** What a probe found, as remembered: the job API's presence only for the base URL it was asked at. */
export type RememberedEngine = Omit<EngineIdentity, 'how'>;

interface CacheEntry {
  base_url: string;
  kind: EngineKind;
  version: string | null;
  detected_at: number;
  job_api?: { base_url: string; served: boolean };
}

export class EngineCache {
  constructor(
    private readonly store: ProfileStore,
    private readonly profile: string,
    private readonly now: () => number = Date.now,
  ) {}

  private file(baseUrl: string): string {
    const key = sha256Hex(baseUrl).slice(0, 32);
    return join(this.store.cacheDir(this.profile, 'engines'), `${key}.json`);
  }

  /** The entry of `baseUrl` (the v1 URL); `jobsUrl`: the base URL whose job API presence counts now. */
  async read(baseUrl: string, jobsUrl?: string): Promise<RememberedEngine | undefined> {
    let entry: unknown;
    try {
      entry = JSON.parse(await readFile(this.file(baseUrl), 'utf8'));
    } catch {
      return undefined;
    }
    if (!isRecord(entry) || entry.base_url !== baseUrl || (entry.kind !== 'cloud' && entry.kind !== 'self-hosted')) return undefined;
    const age = this.now() - Number(entry.detected_at);
    if (!(age >= 0 && age < ENGINE_CACHE_TTL_MS)) return undefined;
    const jobApi = isRecord(entry.job_api) && entry.job_api.base_url === jobsUrl && typeof entry.job_api.served === 'boolean' ? entry.job_api.served : undefined;
    return { kind: entry.kind, version: typeof entry.version === 'string' ? entry.version : null, ...(jobApi === undefined ? {} : { jobApi }) };
  }

  /** Through the one safe-file primitive: a fresh private temp created exclusively, then renamed over the entry. */
  async write(baseUrl: string, identity: RememberedEngine, jobsUrl?: string): Promise<void> {
    const entry: CacheEntry = { base_url: baseUrl, kind: identity.kind, version: identity.version, detected_at: this.now() };
    if (identity.jobApi !== undefined && jobsUrl !== undefined) entry.job_api = { base_url: jobsUrl, served: identity.jobApi };
    try {
      await writeFileSafely(this.file(baseUrl), JSON.stringify(entry), { mode: 0o600 });
    } catch {
      // a cache that cannot be written costs only a probe next time
    }
  }
}
