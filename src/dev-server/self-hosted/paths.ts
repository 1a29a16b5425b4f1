// Where a request to the self-hosted deployment is routed.
import { familyOfPath } from '../../protocol/api-families.js';

/**
 * The engine serves each route bare and under `/api/`: a bare path is handled as its `/api/` twin.
 * The job API v2, the router and the dev-server's control routes keep their own paths.
 */
export function engineRoutePath(path: string): string {
  if (path.startsWith('/api/') || familyOfPath(path) === 'models' || path.startsWith('/__dev')) return path;
  return `/api${path}`;
}

/** The WebSocket: `/ws`, and on the engine also `/api/ws`. */
export const ENGINE_WS_PATH = /^\/(?:api\/)?ws\/?$/;
