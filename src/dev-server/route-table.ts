// Matching a request against a table of `/api/...` routes (the cloud v1 API and the self-hosted
// engine's): the caller answers each outcome in its own error shape.
import type { RequestContext } from './contract.js';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'HEAD';
  pattern: RegExp;
  run: (ctx: RequestContext, ...params: string[]) => Promise<void>;
}

export type RouteMatch =
  | { kind: 'none' }
  | { kind: 'method-not-allowed'; allow: string }
  | { kind: 'bad-param' }
  | { kind: 'hit'; route: Route; params: string[] };

function decodeParam(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** The route of `routes` for `method` on `path`, its path parameters decoded. */
export function matchRoute(routes: readonly Route[], method: string | undefined, path: string): RouteMatch {
  const matching = routes.map((route) => ({ route, match: route.pattern.exec(path) })).filter((m) => m.match);
  if (matching.length === 0) return { kind: 'none' };
  const hit = matching.find((m) => m.route.method === method);
  if (!hit) return { kind: 'method-not-allowed', allow: [...new Set(matching.map((m) => m.route.method))].join(', ') };
  const params = hit.match!.slice(1).map(decodeParam);
  if (params.some((p) => p === null)) return { kind: 'bad-param' };
  return { kind: 'hit', route: hit.route, params: params as string[] };
}
