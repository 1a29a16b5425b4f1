// Which v1 server this command talks to (the engine setting, else detected and cached per base
// URL), asked at most once per command (the cache file read at most once), and the REST status
// reader that fits it.
import type { Factory } from '../../factory.js';
import type { LegacyClient } from '../../clients/legacy/client.js';
import { knownEngine, probeEngine, type EngineIdentity } from '../../clients/legacy/engine.js';
import { EngineCache } from '../../clients/legacy/engine-cache.js';
import { CloudStatusReader, DetectingStatusReader, EngineStatusReader, type StatusReader } from '../../clients/legacy/prompt-state.js';

const identities = new WeakMap<Factory, Promise<EngineIdentity>>();
const known = new WeakMap<Factory, Promise<EngineIdentity | null>>();

function cacheOf(f: Factory): EngineCache {
  return new EngineCache(f.store(), f.settings().profile);
}

/** `make()` once per command (its factory), shared by every caller. */
function oncePer<T>(cache: WeakMap<Factory, Promise<T>>, f: Factory, make: () => Promise<T>): Promise<T> {
  let value = cache.get(f);
  if (!value) {
    value = make();
    cache.set(f, value);
  }
  return value;
}

/** Which server this is, probing when neither the setting nor the cache says (doctor, the v2 404). */
export function engineOf(f: Factory): Promise<EngineIdentity> {
  return oncePer(identities, f, async () => (await knownEngineOf(f)) ?? probeEngine(f.http(), cacheOf(f)));
}

/** What is known of this server without asking it (the engine setting, else the cache), read once per command. */
export function knownEngineOf(f: Factory): Promise<EngineIdentity | null> {
  return oncePer(known, f, () => knownEngine(f.http(), f.settings().engine, cacheOf(f)));
}

/**
 * The REST status reader for this server. When nothing is known yet, the first status read finds
 * out (on the cloud its status route answers, at no extra request) and the answer is remembered.
 */
export async function statusReader(f: Factory, client: LegacyClient): Promise<StatusReader> {
  const identity = await knownEngineOf(f);
  if (identity) return identity.kind === 'self-hosted' ? new EngineStatusReader(client) : new CloudStatusReader(client);
  return new DetectingStatusReader(
    client,
    async () => (await engineOf(f)).kind,
    async (kind) => {
      if (kind === 'cloud') await cacheOf(f).write(f.http().baseUrlFor('legacy'), { kind, version: null });
    },
  );
}

/** "a self-hosted ComfyUI engine (0.3.18)" / "the hosted cloud API". */
export function describeEngine(identity: EngineIdentity): string {
  if (identity.kind === 'cloud') return 'the hosted cloud API';
  return `a self-hosted ComfyUI engine${identity.version ? ` (${identity.version})` : ''}`;
}
