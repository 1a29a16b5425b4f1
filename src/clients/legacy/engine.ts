// Which v1 server the engine URL is: the hosted cloud API, or a self-hosted ComfyUI engine (whose v1
// routes are the same, but which has no status route, answers a missing route with an empty or
// plain-text page and keeps a history instead). An engine answers GET /api/system_stats with
// `system.comfyui_version`; the hosted API answers that route too (with its own `cloud_version`)
// and answers its status route in JSON, which an engine lacks (its web server's 404: an empty body
// on current releases, `404: Not Found` text on older ones). Anything else is taken as the cloud,
// which is how the CLI behaved before. Of a self-hosted engine it is also asked whether the base URL
// serves the job API v2 beside it (the engine itself never does; a job API server in front can).
import type { HttpClient, HttpResponse } from '../../http/client.js';
import { isRecord } from '../shared/response-check.js';

export type EngineKind = 'cloud' | 'self-hosted';

export interface EngineIdentity {
  kind: EngineKind;
  /** The engine's `comfyui_version`; null for the cloud or when it did not say. */
  version: string | null;
  /** How it was known: the engine setting, a fresh probe, or the cache of an earlier probe. */
  how: 'setting' | 'detected' | 'cached';
  /** Whether the base URL serves the job API v2 (always on the cloud); absent when not asked. */
  jobApi?: boolean;
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

function probe(http: HttpClient, path: string, family: 'legacy' | 'jobs' = 'legacy'): Promise<HttpResponse<Buffer>> {
  return http.buffer({ family, url: path, headers: { accept: 'application/json' }, accept: ANY_ERROR_STATUS, retries: 1, timeoutMs: PROBE_TIMEOUT_MS });
}

/** The engine version a system_stats answer names, or null when it is not an engine's answer. */
export function engineVersionOf(body: unknown): string | null {
  if (!isRecord(body) || !isRecord(body.system) || body.system.cloud_version !== undefined) return null;
  const version = body.system.comfyui_version;
  // Shown to the user: only a plain version string counts (no control or markup characters).
  return typeof version === 'string' && /^[\w.+-]{1,64}$/.test(version) ? version : null;
}

/**
 * Whether the base URL serves the job API v2: an unknown job is answered in the job API's own
 * terms (its JSON error, or a refused credential), where an engine has only its web server's 404.
 */
export async function probeJobApi(http: HttpClient): Promise<boolean> {
  try {
    const res = await probe(http, `/api/v2/jobs/${NO_SUCH_PROMPT}`, 'jobs');
    return res.status < 400 || res.status === 401 || res.status === 403 || (res.status === 404 && isRecord(parsed(res)));
  } catch {
    return false;
  }
}

export async function detectEngine(http: HttpClient): Promise<Omit<EngineIdentity, 'how'>> {
  const stats = await probe(http, '/api/system_stats');
  const version = stats.status === 200 ? engineVersionOf(parsed(stats)) : null;
  if (version === null) return { kind: 'cloud', version: null, jobApi: true };
  const status = await probe(http, `/api/job/${NO_SUCH_PROMPT}/status`);
  if (parsed(status) !== undefined) return { kind: 'cloud', version: null, jobApi: true };
  return { kind: 'self-hosted', version, jobApi: await probeJobApi(http) };
}

/** Remembers probes per v1 URL (see engine-cache.ts); `jobsUrl` scopes the job API's presence. */
export interface EngineMemory {
  read(baseUrl: string, jobsUrl?: string): Promise<Omit<EngineIdentity, 'how'> | undefined>;
  write(baseUrl: string, identity: Omit<EngineIdentity, 'how'>, jobsUrl?: string): Promise<void>;
}

function urlsOf(http: HttpClient): [string, string] {
  return [http.baseUrlFor('legacy'), http.baseUrlFor('jobs')];
}

/** What is known without asking the server: the engine setting when it names one, else a remembered probe. */
export async function knownEngine(http: HttpClient, setting: 'auto' | EngineKind, memory: EngineMemory | null): Promise<EngineIdentity | null> {
  const cached = await memory?.read(...urlsOf(http));
  if (setting !== 'auto') {
    const jobApi = setting === 'cloud' ? true : cached?.kind === 'self-hosted' ? cached.jobApi : undefined;
    return { kind: setting, version: cached?.kind === setting ? cached.version : null, how: 'setting', ...(jobApi === undefined ? {} : { jobApi }) };
  }
  return cached ? { ...cached, how: 'cached' } : null;
}

/** A new probe, remembered: for when knownEngine has already said nothing is known. */
export async function probeEngine(http: HttpClient, memory: EngineMemory | null): Promise<EngineIdentity> {
  const found = await detectEngine(http);
  const [legacyUrl, jobsUrl] = urlsOf(http);
  await memory?.write(legacyUrl, found, jobsUrl);
  return { ...found, how: 'detected' };
}

/** Whether the job API v2 is served beside a self-hosted engine, asked once and remembered with its identity. */
export async function jobApiBeside(http: HttpClient, identity: EngineIdentity, memory: EngineMemory | null): Promise<boolean> {
  if (identity.kind === 'cloud' || identity.jobApi !== undefined) return identity.jobApi ?? true;
  const served = await probeJobApi(http);
  const [legacyUrl, jobsUrl] = urlsOf(http);
  await memory?.write(legacyUrl, { kind: identity.kind, version: identity.version, jobApi: served }, jobsUrl);
  return served;
}

/** What is known, else a new probe (remembered). */
export async function resolveEngine(http: HttpClient, setting: 'auto' | EngineKind, memory: EngineMemory | null): Promise<EngineIdentity> {
  return (await knownEngine(http, setting, memory)) ?? probeEngine(http, memory);
}
