// Asks each surface whether it accepts the configured credential, with the cheapest read each
// offers: a job id that cannot exist (404 means the key was accepted), one catalog entry, the v1
// queue. Used by `wes auth status` and `wes doctor`.
import type { ApiSurface, HttpClient, HttpResponse } from '../http/client.js';
import { ApiError, WesError } from '../errors.js';

export type ProbeVerdict = 'accepted' | 'rejected' | 'not_enabled' | 'unreachable' | 'error';

export interface ProbeResult {
  surface: ApiSurface;
  url: string;
  verdict: ProbeVerdict;
  status: number | null;
  message: string;
  request_id: string | null;
  /** The server's Date header, for clock-skew checks. */
  server_date: string | null;
}

const PROBES: Record<ApiSurface, { path: string; okStatuses: number[] }> = {
  jobs: { path: '/api/v2/jobs/00000000-0000-0000-0000-000000000000', okStatuses: [404] },
  router: { path: '/v1/models?limit=1', okStatuses: [] },
  legacy: { path: '/api/queue', okStatuses: [] },
};

export async function probeSurface(http: HttpClient, surface: ApiSurface): Promise<ProbeResult> {
  const { path, okStatuses } = PROBES[surface];
  const url = http.target(surface, path).toString();
  const base = { surface, url, request_id: null, server_date: null } as const;
  let res: HttpResponse<Buffer>;
  try {
    res = await http.buffer({ surface, url: path, accept: okStatuses, retries: 0 });
  } catch (err) {
    if (err instanceof ApiError) {
      const verdict: ProbeVerdict = err.code === 'not_enabled' ? 'not_enabled' : err.status === 401 || err.status === 403 ? 'rejected' : 'error';
      return { ...base, verdict, status: err.status ?? null, message: err.message, request_id: err.requestId ?? null, server_date: err.headers.date ?? null };
    }
    if (err instanceof WesError && err.code === 'network_error') return { ...base, verdict: 'unreachable', status: null, message: err.message };
    throw err;
  }
  return { ...base, verdict: 'accepted', status: res.status, message: 'credential accepted', request_id: res.requestId ?? null, server_date: res.headers.date ?? null };
}

export async function probeAll(http: HttpClient): Promise<ProbeResult[]> {
  return Promise.all((['jobs', 'router', 'legacy'] as const).map((s) => probeSurface(http, s)));
}
