// Asks each API family whether it accepts the configured credential, with the cheapest read each
// offers: a job id that cannot exist (404 means the key was accepted), one catalog entry, the v1
// queue. Used by `wes auth status` and `wes doctor`.
import type { ApiFamily, HttpClient, HttpResponse } from '../http/client.js';
import { API_FAMILIES, ApiError, WesError } from '../errors.js';
import { withoutPassword } from '../config/keys.js';

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
}

/** A family that does not answer within this is reported unreachable; the others still are. */
const PROBE_TIMEOUT_MS = 10_000;

const PROBES: Record<ApiFamily, { path: string; okStatuses: number[] }> = {
  jobs: { path: '/api/v2/jobs/00000000-0000-0000-0000-000000000000', okStatuses: [404] },
  models: { path: '/v1/models?limit=1', okStatuses: [] },
  legacy: { path: '/api/queue', okStatuses: [] },
};

export async function probeFamily(http: HttpClient, family: ApiFamily): Promise<ProbeResult> {
  const { path, okStatuses } = PROBES[family];
  const url = withoutPassword(http.target(family, path).toString());
  const base = { family, surface: SURFACE_NAME[family], url, request_id: null, server_date: null } as const;
  let res: HttpResponse<Buffer>;
  try {
    res = await http.buffer({ family, url: path, accept: okStatuses, retries: 0, timeoutMs: PROBE_TIMEOUT_MS, probe: true });
  } catch (err) {
    if (err instanceof ApiError) {
      const verdict: ProbeVerdict = err.code === 'not_enabled' ? 'not_enabled' : err.status === 401 || err.status === 403 ? 'rejected' : 'error';
      return { ...base, verdict, status: err.status ?? null, message: err.message, request_id: err.requestId ?? null, server_date: err.headers.date ?? null };
    }
    if (err instanceof WesError && err.code === 'network_error') return { ...base, verdict: 'unreachable', status: null, message: err.message };
    throw err;
  }
  // Any web server answers 404 to an unknown path: only the job API's own not_found proves the key was accepted.
  if (res.status === 404 && !isJobNotFound(res.body)) {
    return { ...base, verdict: 'error', status: 404, message: 'answered 404, but not as the job API (is the base URL or its path prefix right?)', request_id: res.requestId ?? null, server_date: res.headers.date ?? null };
  }
  return { ...base, verdict: 'accepted', status: res.status, message: 'credential accepted', request_id: res.requestId ?? null, server_date: res.headers.date ?? null };
}

function isJobNotFound(body: Buffer): boolean {
  try {
    const json = JSON.parse(body.toString('utf8')) as { error?: { code?: unknown } };
    return json?.error?.code === 'not_found';
  } catch {
    return false;
  }
}

export async function probeAll(http: HttpClient): Promise<ProbeResult[]> {
  return Promise.all(API_FAMILIES.map((family) => probeFamily(http, family)));
}
