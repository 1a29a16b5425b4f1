// Asks each API family whether it accepts the configured credential, with the cheapest read each
// offers: a job id that cannot exist (404 means the key was accepted), one catalog entry, the v1
// queue. Used by the `auth status` and `doctor` commands.
import type { ApiFamily, HttpClient, HttpResponse } from '../http/client.js';
import { API_FAMILIES, ApiError, WesError } from '../errors.js';
import { withoutPassword, type RouterApiSetting } from '../config/keys.js';
import type { RouterApi } from '../protocol/models.js';
import { modelsPath } from '../protocol/model-ids.js';
import { isBareMiss } from './models/generation.js';

export type ProbeVerdict = 'accepted' | 'rejected' | 'not_enabled' | 'unreachable' | 'error';

/** The name each family had in `--json` output before it had one name (`router`: models); kept for scripts. */
export type SurfaceName = 'jobs' | 'router' | 'legacy';
export const SURFACE_NAME: Readonly<Record<ApiFamily, SurfaceName>> = { jobs: 'jobs', models: 'router', legacy: 'legacy' };

export interface ProbeResult {
  family: ApiFamily;
  /** The family's old name, for scripts reading `--json`. */
  surface: SurfaceName;
  url: string;
  verdict: ProbeVerdict;
  status: number | null;
  message: string;
  request_id: string | null;
  /** The server's Date header, for clock-skew checks. */
  server_date: string | null;
  /** models: the router routes that answered (`v1`, the interface's; `v2`, the published ones); null when none did, and for the other families. */
  router_api: RouterApi | null;
}

export interface ProbeOptions {
  /** models: which routes to ask (`auto`: the interface's, then the published ones). */
  routerApi?: RouterApiSetting;
}

/** A family that does not answer within this is reported unreachable; the others still are. */
const PROBE_TIMEOUT_MS = 10_000;

const PROBES: Record<ApiFamily, { path: string; okStatuses: number[] }> = {
  jobs: { path: '/api/v2/jobs/00000000-0000-0000-0000-000000000000', okStatuses: [404] },
  models: { path: '/v1/models?limit=1', okStatuses: [] }, // and /v2/models (probeRouter)
  legacy: { path: '/api/queue', okStatuses: [] },
};

export async function probeFamily(http: HttpClient, family: ApiFamily, options: ProbeOptions = {}): Promise<ProbeResult> {
  if (family === 'models') return probeRouter(options.routerApi ?? 'auto', (path) => probeAt(http, 'models', path, []));
  return (await probeAt(http, family, PROBES[family].path, PROBES[family].okStatuses)).result;
}

/** One probe request; `miss` when the answer was a 404/405 no router wrote (probeRouter then tries the other routes). */
async function probeAt(http: HttpClient, family: ApiFamily, path: string, okStatuses: number[]): Promise<{ result: ProbeResult; miss: boolean }> {
  const url = withoutPassword(http.target(family, path).toString());
  const base = { family, surface: SURFACE_NAME[family], url, request_id: null, server_date: null, router_api: null } as const;
  let res: HttpResponse<Buffer>;
  try {
    res = await http.buffer({ family, url: path, accept: okStatuses, retries: 0, timeoutMs: PROBE_TIMEOUT_MS, probe: true });
  } catch (err) {
    if (err instanceof ApiError) {
      const verdict: ProbeVerdict = err.code === 'not_enabled' ? 'not_enabled' : err.status === 401 || err.status === 403 ? 'rejected' : 'error';
      const result = { ...base, verdict, status: err.status ?? null, message: err.message, request_id: err.requestId ?? null, server_date: err.headers.date ?? null };
      return { result, miss: isBareMiss(err) };
    }
    if (err instanceof WesError && err.code === 'network_error') return { result: { ...base, verdict: 'unreachable', status: null, message: err.message }, miss: false };
    throw err;
  }
  // Any web server answers 404 to an unknown path: only the job API's own not_found proves the key was accepted.
  if (res.status === 404 && !isJobNotFound(res.body)) {
    const result = { ...base, verdict: 'error', status: 404, message: 'answered 404, but not as the job API (is the base URL or its path prefix right?)', request_id: res.requestId ?? null, server_date: res.headers.date ?? null } as const;
    return { result, miss: false };
  }
  return { result: { ...base, verdict: 'accepted', status: res.status, message: 'credential accepted', request_id: res.requestId ?? null, server_date: res.headers.date ?? null }, miss: false };
}

function isJobNotFound(body: Buffer): boolean {
  try {
    const json = JSON.parse(body.toString('utf8')) as { error?: { code?: unknown } };
    // Comfy Cloud names the entity (`job_not_found`); the other deployments say `not_found`.
    return json?.error?.code === 'not_found' || json?.error?.code === 'job_not_found';
  } catch {
    return false;
  }
}

export async function probeAll(http: HttpClient, options: ProbeOptions = {}): Promise<ProbeResult[]> {
  return Promise.all(API_FAMILIES.map((family) => probeFamily(http, family, options)));
}

/**
 * The router's probe: the cheapest catalog read, one entry, on the routes the setting names; with
 * `auto`, the interface's /v1 routes and then the published /v2 ones when the first answer is a 404
 * no router wrote. The result names the routes that answered.
 */
async function probeRouter(setting: RouterApiSetting, probeAt: (path: string) => Promise<{ result: ProbeResult; miss: boolean }>): Promise<ProbeResult> {
  const order: RouterApi[] = setting === 'auto' ? ['v1', 'v2'] : [setting];
  let last: ProbeResult | undefined;
  for (const api of order) {
    const { result, miss } = await probeAt(`${modelsPath(api)}?limit=1`);
    if (!miss) return result.verdict === 'unreachable' ? result : { ...result, router_api: api };
    last = result;
  }
  const tried = order.map(modelsPath).join(' and ');
  return { ...last!, message: `answered ${last!.status} to ${tried}, not as a model router (no error type): no router is served there` };
}
