// The cloud fetching a remote file for the asset library (uploadAsset from a URL,
// getRemoteAssetMetadata, createAssetDownload). The dev-server has no internet: it reaches loopback
// origins only, and a host the `remoteOrigins` option names (huggingface.co in a test) is fetched
// from the loopback origin standing in for it, at every redirect too (huggingface.co sends files
// on to its CDN). Nothing of the caller's request goes on: no credential, no header of theirs; the
// remote origin sees only the cloud.
import type { DevState } from '../contract.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A refusal as the published contract words it for each case (uploadAsset's 403, 404, 422). */
export class RemoteFailure extends Error {
  constructor(
    readonly status: 403 | 404 | 422,
    message: string,
  ) {
    super(message);
  }
}

/** An http(s) URL, or null: the contract takes only HTTP/HTTPS URLs. */
export function httpUrl(raw: unknown): URL | null {
  if (typeof raw !== 'string') return null;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** Where the dev-server really fetches `url` from; null when it cannot reach that host. */
function reachable(state: DevState, url: URL): URL | null {
  const stand = state.options.remoteOrigins[url.hostname.toLowerCase()];
  const target = stand ? new URL(url.pathname + url.search, stand) : url;
  return LOOPBACK.has(target.hostname) ? target : null;
}

/** Redirects followed at most, each hop checked as the first URL is. */
const MAX_REDIRECTS = 5;

/** The remote answer (2xx), or a RemoteFailure worded as the contract's refusals are. Redirects are followed by hand: each hop must be reachable as the first was. */
export async function fetchRemote(state: DevState, url: URL, method: 'GET' | 'HEAD', signal?: AbortSignal): Promise<Response> {
  let hop = url;
  for (let redirects = 0; ; redirects++) {
    const res = await fetchHop(state, hop, method, signal);
    const location = res.headers.get('location');
    if (![301, 302, 303, 307, 308].includes(res.status) || location === null) return checked(res, url);
    await res.body?.cancel();
    if (redirects === MAX_REDIRECTS) throw new RemoteFailure(422, `${url.host} redirected more than ${MAX_REDIRECTS} times`);
    const next = httpUrl(new URL(location, hop).href);
    if (!next) throw new RemoteFailure(422, `${url.host} redirected to a URL that is not http(s)`);
    hop = next;
  }
}

async function fetchHop(state: DevState, url: URL, method: 'GET' | 'HEAD', signal?: AbortSignal): Promise<Response> {
  const target = reachable(state, url);
  if (!target) throw new RemoteFailure(422, `could not reach ${url.host}: network error (this server reaches loopback hosts and those its remoteOrigins name)`);
  try {
    return await fetch(target, { method, redirect: 'manual', signal, headers: { 'user-agent': 'wes-dev-server' } });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new RemoteFailure(422, `download from ${url.host} failed: ${(err as Error).message}`);
  }
}

async function checked(res: Response, url: URL): Promise<Response> {
  if (res.ok) return res;
  await res.body?.cancel();
  if (res.status === 401 || res.status === 403) throw new RemoteFailure(403, `${url.host} refused the file (${res.status}): it needs authentication or access is denied`);
  if (res.status === 404) throw new RemoteFailure(404, `${url.host} has no file at ${url.pathname}`);
  throw new RemoteFailure(422, `${url.host} answered ${res.status}`);
}

/** The source's file name: Content-Disposition's, else the URL's last path segment; never a path. */
export function remoteFilename(url: URL, disposition: string | null = null): string {
  disposition ??= '';
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
  let name = '';
  try {
    name = extended ? decodeURIComponent(extended[1]!.trim()) : plain ? plain[1]!.trim() : decodeURIComponent(url.pathname.split('/').pop() ?? '');
  } catch {
    name = '';
  }
  const last = name.split(/[\\/]/).pop()?.replace(/[\u0000-\u001f\u007f]/g, '') ?? '';
  return last === '' || last === '.' || last === '..' ? 'download' : last;
}

/** Content-Length, -1 when the source does not say (as AssetMetadataResponse.content_length). */
export function remoteLength(res: Response): number {
  const raw = res.headers.get('content-length');
  return raw !== null && /^\d+$/.test(raw) ? Number(raw) : -1;
}
