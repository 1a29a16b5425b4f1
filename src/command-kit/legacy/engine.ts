// Which v1 server this command talks to (the engine setting, else detected and cached per engine
// URL), asked at most once per command (the cache file read at most once), and the REST status
// reader that fits it.
import type { Factory } from '../../factory.js';
import type { LegacyClient } from '../../clients/legacy/client.js';
import { jobApiBeside, knownEngine, probeEngine, type EngineIdentity } from '../../clients/legacy/engine.js';
import { EngineCache } from '../../clients/legacy/engine-cache.js';
import { CloudStatusReader, DetectingStatusReader, EngineStatusReader, type StatusReader } from '../../clients/legacy/prompt-state.js';
import { redactUrl } from '../../http/redact.js';

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

/** Which server this is, probing when neither the setting nor the cache says; said once with --verbose. */
export function engineOf(f: Factory): Promise<EngineIdentity> {
  return oncePer(identities, f, async () => {
    const identity = (await knownEngineOf(f)) ?? (await probeEngine(f.http(), cacheOf(f)));
    f.io.debug(`v1 server at ${redactUrl(new URL(f.http().baseUrlFor('legacy')))}: ${describeEngine(identity)} (${HOW[identity.how]})`);
    return identity;
  });
}

const HOW: Record<EngineIdentity['how'], string> = {
  setting: 'as the engine setting says',
  detected: 'found by a probe, remembered for 5 minutes',
  cached: 'remembered from an earlier probe',
};

/** What is known of this server without asking it (the engine setting, else the cache), read once per command. */
export function knownEngineOf(f: Factory): Promise<EngineIdentity | null> {
  return oncePer(known, f, () => knownEngine(f.http(), f.settings().engine, cacheOf(f)));
}

/** Whether the base URL serves the job API v2 beside this v1 server (the cloud always does). */
export function jobApiBesideOf(f: Factory, identity: EngineIdentity): Promise<boolean> {
  return jobApiBeside(f.http(), identity, cacheOf(f));
}

/**
 * The REST status reader for this server. When it could not be found out (the probe failed), the
 * first status read finds out: on the cloud its status route answers; an engine lacks it.
 */
export function statusReader(f: Factory, client: LegacyClient, identity: EngineIdentity | null): StatusReader {
  if (identity) return identity.kind === 'self-hosted' ? new EngineStatusReader(client) : new CloudStatusReader(client);
  return new DetectingStatusReader(
    client,
    async () => (await engineOf(f)).kind,
    async (kind) => {
      if (kind === 'cloud') await cacheOf(f).write(f.http().baseUrlFor('legacy'), { kind, version: null, jobApi: true }, f.http().baseUrlFor('jobs'));
    },
  );
}

/** "a self-hosted ComfyUI engine (0.3.18)" / "the hosted cloud API". */
export function describeEngine(identity: EngineIdentity): string {
  if (identity.kind === 'cloud') return 'the hosted cloud API';
  return `a self-hosted ComfyUI engine${identity.version ? ` (${identity.version})` : ''}`;
}
