// Links embedded in responses are followed, never rebuilt. A host-relative link already carries
// any mount prefix, so it resolves against the origin of the response that carried it, never
// against the configured base URL (which may hold the same prefix).
import { WesError, ExitCode, UsageError } from '../errors.js';

export function resolveLink(link: string, responseUrl: URL | string): URL {
  const base = typeof responseUrl === 'string' ? new URL(responseUrl) : responseUrl;
  const hostRelative = link.startsWith('/') && !link.startsWith('//');
  let url: URL;
  try {
    url = hostRelative ? new URL(link, base.origin) : new URL(link, base);
  } catch {
    throw badLink(link);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badLink(link);
  // URL parsing reads '/\host' (and '/' + tab + '/host') as another host: such a link only
  // looks host-relative, and is refused rather than followed elsewhere.
  if (hostRelative && url.origin !== base.origin) throw badLink(link);
  return url;
}

function badLink(link: string): WesError {
  return new WesError(`the server sent a link that is not an http(s) URL: ${JSON.stringify(link.slice(0, 200))}`, {
    exitCode: ExitCode.ERROR,
    code: 'bad_link',
  });
}

/** Appends an API path to a base URL that may carry a path prefix. */
export function joinBase(base: string, path: string): URL {
  const trimmed = base.replace(/\/+$/, '');
  return new URL(trimmed + (path.startsWith('/') ? path : `/${path}`));
}

/**
 * Encodes one path segment so ids cannot change the request path ('/', '%2f', '?', '#'). URLs
 * treat '%2e' like '.', so no encoding keeps '.' or '..' from being resolved away (and '' would
 * name the collection): those are refused, as no id can be one of them.
 */
export function segment(value: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new UsageError(`${JSON.stringify(value)} is not an id: it would change the request path`, 'pass the id exactly as the service gave it');
  }
  return encodeURIComponent(value);
}
