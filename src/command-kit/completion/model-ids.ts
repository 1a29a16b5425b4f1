// Model ids for completion, from a cached catalog page: a shell waits for none of the network.
// A missing or day-old cache is refreshed by a detached `wes __complete models-refresh`; the
// completion answers at once with what the cache holds (nothing, the first time).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { makeFoldersSync } from '../../util/make-folders.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Factory } from '../../factory.js';
import { stateDir } from '../../config/history.js';
import { writeFileSafely } from '../../files/safe-file.js';
import { sha256Hex } from '../../util/sha256-hex.js';
import { selfCommand } from '../../util/sea-host.js';

const MAX_AGE_MS = 24 * 3600 * 1000;
const PAGE = 200;
const REFRESH_DEADLINE_MS = 10_000;
/** Only ids that a shell can take as they are (bash's compgen expands its word list). */
export const SAFE_MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

function cachePath(f: Factory): string {
  const s = f.settings();
  const key = sha256Hex(`${s.profile}\n${s.routerUrl}`).slice(0, 16);
  return join(stateDir(f.env), 'cache', `model-ids-${key}.txt`);
}

/** The cached ids (safe ones only); starts a background refresh when the cache is missing or old. */
export function cachedModelIds(f: Factory): string[] {
  const path = cachePath(f);
  let ids: string[] = [];
  let fresh = false;
  try {
    fresh = f.clock.now() - statSync(path).mtimeMs < MAX_AGE_MS;
    ids = readFileSync(path, 'utf8').split('\n').filter((l) => SAFE_MODEL_ID.test(l));
  } catch {
    // no cache yet
  }
  const self = fresh ? undefined : selfCommand(wesBin);
  if (self) spawn(self[0]!, [...self.slice(1), '__complete', 'models-refresh'], { detached: true, stdio: 'ignore', env: f.env }).unref();
  return ids;
}

/**
 * This package's bin/wes.js, found from this module (dist/chunks/… or src/command-kit/…), never
 * from process.argv: wes may run inside another program (a test runner).
 */
function wesBin(): string | undefined {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    const bin = join(dir, 'bin', 'wes.js');
    if (existsSync(bin) && existsSync(join(dir, 'package.json'))) return bin;
  }
  return undefined;
}

/** Reads one catalog page and replaces the cache (exclusive temp file, then rename). */
export async function refreshModelIds(f: Factory): Promise<void> {
  // The profile's router routes (router_api, or those remembered for it), as every models command uses.
  const { modelsClient } = await import('../models/context.js');
  const page = await modelsClient(f, AbortSignal.any([f.signal, AbortSignal.timeout(REFRESH_DEADLINE_MS)])).listPage({ limit: PAGE });
  const ids = page.data.map((m) => m.id).filter((id) => SAFE_MODEL_ID.test(id));
  const path = cachePath(f);
  makeFoldersSync(join(path, '..'), 0o700);
  await writeFileSafely(path, ids.join('\n') + '\n', { mode: 0o600, durable: true });
}
