// Where a `wes api` request goes: the surface (inferred from the path, or --surface) and the
// URL on that surface's configured base. Nothing may leave the configured origins, since the
// request carries that surface's credential.
import type { ApiSurface } from '../../http/client.js';
import { joinBase } from '../../http/links.js';
import { UsageError } from '../../errors.js';

export const API_SURFACES: readonly ApiSurface[] = ['jobs', 'router', 'legacy'];

export interface ApiBases {
  baseUrl: string;
  routerUrl: string;
}

export interface ApiTarget {
  surface: ApiSurface;
  url: URL;
}

/** `/api/v2/...` is the job API, `/v1/...` the router, any other `/api/...` the v1 cloud API. */
export function inferSurface(pathname: string): ApiSurface | undefined {
  if (/^\/api\/v2(\/|$)/.test(pathname)) return 'jobs';
  if (/^\/v1(\/|$)/.test(pathname)) return 'router';
  if (/^\/api(\/|$)/.test(pathname)) return 'legacy';
  return undefined;
}

function baseOf(bases: ApiBases, surface: ApiSurface): URL {
  return new URL(surface === 'router' ? bases.routerUrl : bases.baseUrl);
}

/** The API path of an absolute URL: its path below the base URL's own prefix, if it has one. */
function apiPath(url: URL, base: URL): string {
  const prefix = base.pathname.replace(/\/+$/, '');
  return prefix && url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : url.pathname;
}

function unknownSurface(path: string): UsageError {
  return new UsageError(
    `cannot tell which surface ${JSON.stringify(path)} belongs to`,
    'paths start with /api/v2/ (jobs), /v1/ (router) or /api/ (cloud API v1); or pass --surface jobs|router|legacy',
  );
}

function absoluteTarget(raw: string, bases: ApiBases, forced: ApiSurface | undefined): ApiTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`not a valid URL: ${raw}`);
  }
  const candidates = (forced ? [forced] : API_SURFACES).filter((s) => baseOf(bases, s).origin === url.origin);
  if (!candidates.length) {
    const origins = [...new Set([baseOf(bases, 'jobs').origin, baseOf(bases, 'router').origin])].join(' or ');
    throw new UsageError(
      `${url.origin} is not a configured origin: wes api sends requests (and credentials) only to ${origins}`,
      'give a path such as /api/v2/jobs/ID, or change the base URL with --base-url / --router-url',
    );
  }
  if (forced) return { surface: forced, url };
  const inferred = candidates.find((s) => inferSurface(apiPath(url, baseOf(bases, s))) === s);
  if (inferred) return { surface: inferred, url };
  if (candidates.length === 1) return { surface: candidates[0]!, url };
  throw unknownSurface(url.pathname);
}

export function resolveTarget(rawPath: string, bases: ApiBases, forced?: ApiSurface): ApiTarget {
  if (/^[a-z][a-z0-9+.-]*:/i.test(rawPath) && !rawPath.startsWith('/')) {
    if (!/^https?:\/\//i.test(rawPath)) throw new UsageError(`only http(s) URLs or paths are accepted, got ${JSON.stringify(rawPath)}`);
    return absoluteTarget(rawPath, bases, forced);
  }
  if (rawPath.startsWith('//') || rawPath.includes('\\')) {
    throw new UsageError(`${JSON.stringify(rawPath)} is not a path on the configured server`, 'give a path such as /api/v2/jobs/ID');
  }
  const path = rawPath.startsWith('/') ? rawPath : `/${rawPath}`;
  const surface = forced ?? inferSurface(new URL(path, 'http://x').pathname);
  if (!surface) throw unknownSurface(path);
  const base = baseOf(bases, surface);
  const url = joinBase(base.toString(), path);
  if (url.origin !== base.origin) throw new UsageError(`${JSON.stringify(rawPath)} would leave ${base.origin}`);
  return { surface, url };
}
