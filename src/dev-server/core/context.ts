// Builds the RequestContext: parses the URL and strips the serverless mount prefix.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DevState, RequestContext } from '../contract.js';

const MOUNT = /^\/deployment\/([^/]+)(?=\/|$)/;

export function newRequestId(): string {
  return `req_${randomUUID().replace(/-/g, '')}`;
}

export function requestOrigin(req: IncomingMessage, fallbackHost: string): string {
  return `http://${req.headers.host ?? fallbackHost}`;
}

export function buildContext(req: IncomingMessage, res: ServerResponse, state: DevState, requestId: string): RequestContext {
  const origin = requestOrigin(req, `${state.options.host}:${state.options.port}`);
  let url: URL;
  try {
    url = new URL(req.url ?? '/', origin);
  } catch {
    url = new URL('/', origin);
  }
  let path = url.pathname;
  let mountPrefix = '';
  let deploymentId: string | null = null;
  // Only a serverless gateway mounts the API under a deployment prefix.
  const match = state.options.surface === 'serverless' ? MOUNT.exec(path) : null;
  if (match) {
    mountPrefix = match[0];
    deploymentId = decodeURIComponent(match[1]!);
    path = path.slice(mountPrefix.length) || '/';
  }
  return { req, res, url, path, mountPrefix, deploymentId, origin, requestId, state };
}
