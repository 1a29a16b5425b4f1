// Which v1 server this command talks to (the engine setting, else detected and cached per base
// URL), asked at most once per command, and the REST status reader that fits it.
import type { Factory } from '../../factory.js';
import type { LegacyClient } from '../../surfaces/legacy/client.js';
import { resolveEngine, type EngineIdentity } from '../../surfaces/legacy/engine.js';
import { EngineCache } from '../../surfaces/legacy/engine-cache.js';
import { CloudStatusReader, EngineStatusReader, type StatusReader } from '../../surfaces/legacy/prompt-state.js';

const known = new WeakMap<Factory, Promise<EngineIdentity>>();

export function engineOf(f: Factory): Promise<EngineIdentity> {
  let identity = known.get(f);
  if (!identity) {
    const s = f.settings();
    identity = resolveEngine(f.http(), s.engine, new EngineCache(f.store(), s.profile));
    known.set(f, identity);
  }
  return identity;
}

export async function statusReader(f: Factory, client: LegacyClient): Promise<StatusReader> {
  const { kind } = await engineOf(f);
  return kind === 'self-hosted' ? new EngineStatusReader(client) : new CloudStatusReader(client);
}

/** "a self-hosted ComfyUI engine (0.3.18)" / "the hosted cloud API". */
export function describeEngine(identity: EngineIdentity): string {
  if (identity.kind === 'cloud') return 'the hosted cloud API';
  return `a self-hosted ComfyUI engine${identity.version ? ` (${identity.version})` : ''}`;
}
