// Where a `wes api` request goes: the API family (inferred from the path, or --surface) and the
// URL on that family's configured base (the legacy family's is the engine URL when one is set).
// Nothing may leave the configured origins, since the request carries that family's credential.
import type { ApiFamily } from '../../http/client.js';
import { joinBase } from '../../http/links.js';
import { UsageError } from '../../errors.js';
import { API_FAMILIES, familyOfPath } from '../../protocol/api-families.js';

/** `--surface router` named the models family before it had one name; scripts may still say so. */
export function familyAlias(value: string): string {
  return value === 'router' ? 'models' : value;
}

export interface ApiBases {
  baseUrl: string;
  routerUrl: string;
  /** The legacy family's base: the engine URL, which is the base URL unless set. */
  engineUrl: string;
}

export interface ApiTarget {
  family: ApiFamily;
  url: URL;
}

function baseOf(bases: ApiBases, family: ApiFamily): URL {
  return new URL(family === 'models' ? bases.routerUrl : family === 'legacy' ? bases.engineUrl : bases.baseUrl);
}

/** The API path of an absolute URL: its path below the base URL's own prefix, if it has one. */
function apiPath(url: URL, base: URL): string {
  const prefix = base.pathname.replace(/\/+$/, '');
  return prefix && url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : url.pathname;
}

function unknownFamily(path: string): UsageError {
  return new UsageError(
    `cannot tell which API family ${JSON.stringify(path)} belongs to`,
    'paths start with /api/v2/ (jobs), /v1/ (models) or /api/ (legacy, cloud API v1); or pass --surface jobs|models|legacy',
  );
}

function absoluteTarget(raw: string, bases: ApiBases, forced: ApiFamily | undefined): ApiTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`not a valid URL: ${raw}`);
  }
  const candidates = (forced ? [forced] : API_FAMILIES).filter((s) => baseOf(bases, s).origin === url.origin);
  if (!candidates.length) {
    const origins = [...new Set(API_FAMILIES.map((family) => baseOf(bases, family).origin))].join(' or ');
    throw new UsageError(
      `${url.origin} is not a configured origin: wes api sends requests (and credentials) only to ${origins}`,
      'give a path such as /api/v2/jobs/ID, or change the base URL with --base-url / --router-url / --engine-url',
    );
  }
  if (forced) return { family: forced, url };
  const inferred = candidates.find((s) => familyOfPath(apiPath(url, baseOf(bases, s))) === s);
  if (inferred) return { family: inferred, url };
  if (candidates.length === 1) return { family: candidates[0]!, url };
  throw unknownFamily(url.pathname);
}

export function resolveTarget(rawPath: string, bases: ApiBases, forced?: ApiFamily): ApiTarget {
  if (/^[a-z][a-z0-9+.-]*:/i.test(rawPath) && !rawPath.startsWith('/')) {
    if (!/^https?:\/\//i.test(rawPath)) throw new UsageError(`only http(s) URLs or paths are accepted, got ${JSON.stringify(rawPath)}`);
    return absoluteTarget(rawPath, bases, forced);
  }
  if (rawPath.startsWith('//') || rawPath.includes('\\')) {
    throw new UsageError(`${JSON.stringify(rawPath)} is not a path on the configured server`, 'give a path such as /api/v2/jobs/ID');
  }
  const path = rawPath.startsWith('/') ? rawPath : `/${rawPath}`;
  const family = forced ?? familyOfPath(new URL(path, 'http://x').pathname);
  if (!family) throw unknownFamily(path);
  const base = baseOf(bases, family);
  const url = joinBase(base.toString(), path);
  if (url.origin !== base.origin) throw new UsageError(`${JSON.stringify(rawPath)} would leave ${base.origin}`);
  return { family, url };
}
