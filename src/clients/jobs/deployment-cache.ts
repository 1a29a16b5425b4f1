// Remembers, per profile and base URL, which deployment of the job API answered there. No expiry:
// Comfy Cloud refuses any `metadata`, and the one refused submit that teaches the client so must not be
// paid again (at most one per base URL, ever); an answer that says otherwise later updates it. A
// damaged or foreign entry is ignored; a failed write costs only that lesson once more.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProfileStore } from '../../config/store.js';
import { writeFileSafely } from '../../files/safe-file.js';
import { sha256Hex } from '../../util/sha256-hex.js';
import { isRecord } from '../shared/response-check.js';
import { DIALECTS, type Deployment, type DeploymentMemory } from './deployment.js';

export class DeploymentCache implements DeploymentMemory {
  constructor(
    private readonly store: ProfileStore,
    private readonly profile: string,
  ) {}

  private path(baseUrl: string): string {
    return join(this.store.cacheDir(this.profile, 'job-api'), `${sha256Hex(baseUrl).slice(0, 32)}.json`);
  }

  async read(baseUrl: string): Promise<Deployment | undefined> {
    let entry: unknown;
    try {
      entry = JSON.parse(await readFile(this.path(baseUrl), 'utf8'));
    } catch {
      return undefined;
    }
    if (!isRecord(entry) || entry.base_url !== baseUrl || typeof entry.deployment !== 'string' || !(entry.deployment in DIALECTS)) return undefined;
    return entry.deployment as Deployment;
  }

  async write(baseUrl: string, deployment: Deployment): Promise<void> {
    await writeFileSafely(this.path(baseUrl), JSON.stringify({ base_url: baseUrl, deployment, learnt_at: new Date().toISOString() }), { mode: 0o600 });
  }
}
