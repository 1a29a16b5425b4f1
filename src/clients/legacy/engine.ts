// Which v1 server the base URL is: the hosted cloud API, or a self-hosted ComfyUI engine (whose v1
// routes are the same, but which has no status route, answers errors in plain text and keeps a
// history instead). An engine answers GET /api/system_stats with `system.comfyui_version`; a hosted
// API that relays that route still answers its own status route in JSON, which an engine lacks
// (plain-text 404). Anything else is taken as the cloud, which is how wes behaved before.
import type { HttpClient, HttpResponse } from '../../http/client.js';
import { isRecord } from '../shared/response-check.js';

export type EngineKind = 'cloud' | 'self-hosted';

export interface EngineIdentity {
  kind: EngineKind;
  /** The engine's `comfyui_version`; null for the cloud or when it did not say. */
  version: string | null;
  /** How it was known: the engine setting, a fresh probe, or the cache of an earlier probe. */
  how: 'setting' | 'detected' | 'cached';
}

/** Probes are cheap reads: every error status comes back as an answer to judge, not a throw. */
const ANY_ERROR_STATUS = Array.from({ length: 200 }, (_, i) => 400 + i);
const PROBE_TIMEOUT_MS = 10_000;
const NO_SUCH_PROMPT = '00000000-0000-0000-0000-000000000000';

function parsed(res: HttpResponse<Buffer>): unknown {
  try {
    return JSON.parse(res.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

function probe(http: HttpClient, path: string): Promise<HttpResponse<Buffer>> {
  return http.buffer({ family: 'legacy', url: path, headers: { accept: 'application/json' }, accept: ANY_ERROR_STATUS, retries: 1, timeoutMs: PROBE_TIMEOUT_MS });
}

/** The engine version a system_stats answer names, or null when it is not an engine's answer. */
export function engineVersionOf(body: unknown): string | null {
  if (!isRecord(body) || !isRecord(body.system)) return null;
  const version = body.system.comfyui_version;
  // Shown to the user: only a plain version string counts (no control or markup characters).
  return typeof version === 'string' && /^[\w.+-]{1,64}$/.test(version) ? version : null;
}

export async function detectEngine(http: HttpClient): Promise<Omit<EngineIdentity, 'how'>> {
  const stats = await probe(http, '/api/system_stats');
  const version = stats.status === 200 ? engineVersionOf(parsed(stats)) : null;
  if (version === null) return { kind: 'cloud', version: null };
  const status = await probe(http, `/api/job/${NO_SUCH_PROMPT}/status`);
  return parsed(status) === undefined ? { kind: 'self-hosted', version } : { kind: 'cloud', version: null };
}

/** Remembers probes per base URL (see engine-cache.ts). */
export interface EngineMemory {
  read(baseUrl: string): Promise<Omit<EngineIdentity, 'how'> | undefined>;
  write(baseUrl: string, identity: Omit<EngineIdentity, 'how'>): Promise<void>;
}

/** What is known without asking the server: the engine setting when it names one, else a remembered probe. */
export async function knownEngine(http: HttpClient, setting: 'auto' | EngineKind, memory: EngineMemory | null): Promise<EngineIdentity | null> {
  if (setting !== 'auto') return { kind: setting, version: null, how: 'setting' };
  const cached = await memory?.read(http.baseUrlFor('legacy'));
  return cached ? { ...cached, how: 'cached' } : null;
}

/** A new probe, remembered: for when knownEngine has already said nothing is known. */
export async function probeEngine(http: HttpClient, memory: EngineMemory | null): Promise<EngineIdentity> {
  const found = await detectEngine(http);
  await memory?.write(http.baseUrlFor('legacy'), found);
  return { ...found, how: 'detected' };
}

/** What is known, else a new probe (remembered). */
export async function resolveEngine(http: HttpClient, setting: 'auto' | EngineKind, memory: EngineMemory | null): Promise<EngineIdentity> {
  return (await knownEngine(http, setting, memory)) ?? probeEngine(http, memory);
}
