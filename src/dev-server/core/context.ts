// Builds the RequestContext: parses the URL and strips the serverless mount prefix. Everything
// here reads client-controlled text (Host, request target), so nothing may throw past it.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DevState, ListenerRole, RequestContext } from '../contract.js';
import { BodyError } from '../http-kit.js';

const MOUNT = /^\/deployment\/([^/]+)(?=\/|$)/;
const FIXED_BASE = 'http://localhost';

export function newRequestId(): string {
  return `req_${randomUUID().replace(/-/g, '')}`;
}

/** The request target as a URL, or null when it is not one (e.g. `http://[/x`). */
export function parseTarget(target: string | undefined, base: string = FIXED_BASE): URL | null {
  try {
    return new URL(target ?? '/', base);
  } catch {
    return null;
  }
}

/** `http://` + the Host header when that names a valid authority, else the listener's own address. */
export function requestOrigin(req: IncomingMessage, fallbackHost: string): string {
  const host = req.headers.host;
  const parsed = host ? parseTarget(`http://${host}`) : null;
  // Only a bare authority counts: `Host: a/b` or `Host: u@h` would otherwise smuggle a path or user.
  const bare = parsed && !parsed.username && !parsed.password && parsed.pathname === '/' && !parsed.search && !parsed.hash;
  if (bare && !host!.endsWith('/')) return parsed.origin;
  return `http://${fallbackHost}`;
}

/** host:port of the listener the request came in on (each listener has its own port). */
function listenerAddress(req: IncomingMessage, state: DevState): string {
  return `${state.options.host}:${req.socket.localPort ?? state.options.port}`;
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Throws BodyError(400) when the request target is not a URL. */
export function buildContext(req: IncomingMessage, res: ServerResponse, state: DevState, requestId: string, serves: ListenerRole): RequestContext {
  const origin = requestOrigin(req, listenerAddress(req, state));
  const url = parseTarget(req.url, origin);
  if (!url) throw new BodyError(400, 'the request target is not a valid URL');
  let path = url.pathname;
  let mountPrefix = '';
  let deploymentId: string | null = null;
  // Only a serverless gateway mounts the API under a deployment prefix.
  const match = state.options.deployment === 'serverless' ? MOUNT.exec(path) : null;
  if (match) {
    mountPrefix = match[0];
    // An undecodable id stays null under a non-empty prefix: a mount that names no deployment.
    deploymentId = decodeSegment(match[1]!);
    path = path.slice(mountPrefix.length) || '/';
  }
  return { req, res, url, path, mountPrefix, deploymentId, origin, requestId, state, serves };
}

/** A context for a request whose target could not be parsed, so its error can still be answered. */
export function fallbackContext(req: IncomingMessage, res: ServerResponse, state: DevState, requestId: string, serves: ListenerRole): RequestContext {
  const origin = requestOrigin(req, listenerAddress(req, state));
  return { req, res, url: new URL('/', origin), path: '/', mountPrefix: '', deploymentId: null, origin, requestId, state, serves };
}
