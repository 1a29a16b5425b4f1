// The legacy API (cloud API v1, deprecated) of the dev-server: every `/api/...` path outside `/api/v2`,
// plus the `/ws` WebSocket. The core has already checked `X-API-Key` before this runs.
import type { RequestContext, RouteHandler } from '../contract.js';
import { sendLegacyError } from '../http-kit.js';
import { features, objectInfo, objectInfoOfClass } from './info.js';
import { jobStatus } from './job-status.js';
import { interrupt, getQueue, postQueue } from './queue.js';
import { submitPrompt } from './prompt.js';
import { uploadImage, uploadMask } from './upload.js';
import { view } from './view.js';

export { attachLegacyWebSocket } from './socket.js';
export { checkLegacyCredential } from './access.js';

interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  run: (ctx: RequestContext, ...params: string[]) => Promise<void>;
}

const ROUTES: Route[] = [
  { method: 'GET', pattern: /^\/api\/object_info$/, run: objectInfo },
  { method: 'GET', pattern: /^\/api\/object_info\/([^/]+)$/, run: objectInfoOfClass },
  { method: 'GET', pattern: /^\/api\/features$/, run: features },
  { method: 'POST', pattern: /^\/api\/upload\/image$/, run: uploadImage },
  { method: 'POST', pattern: /^\/api\/upload\/mask$/, run: uploadMask },
  { method: 'POST', pattern: /^\/api\/prompt$/, run: submitPrompt },
  { method: 'GET', pattern: /^\/api\/job\/([^/]+)\/status$/, run: jobStatus },
  { method: 'GET', pattern: /^\/api\/view$/, run: view },
  { method: 'GET', pattern: /^\/api\/queue$/, run: getQueue },
  { method: 'POST', pattern: /^\/api\/queue$/, run: postQueue },
  { method: 'POST', pattern: /^\/api\/interrupt$/, run: interrupt },
];

function ownsPath(path: string): boolean {
  return path.startsWith('/api/') && path !== '/api/v2' && !path.startsWith('/api/v2/');
}

function decodeParam(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

export const handleLegacy: RouteHandler = async (ctx) => {
  if (!ownsPath(ctx.path)) return false;
  const matching = ROUTES.map((route) => ({ route, match: route.pattern.exec(ctx.path) })).filter((m) => m.match);
  if (matching.length === 0) {
    sendLegacyError(ctx, 404, 'not_found', `no route ${ctx.req.method} ${ctx.path}`);
    return true;
  }
  const hit = matching.find((m) => m.route.method === ctx.req.method);
  if (!hit) {
    const allow = [...new Set(matching.map((m) => m.route.method))].join(', ');
    ctx.res.setHeader('allow', allow);
    sendLegacyError(ctx, 405, 'method_not_allowed', `${ctx.req.method} is not allowed on ${ctx.path}; use ${allow}`);
    return true;
  }
  const params = hit.match!.slice(1).map(decodeParam);
  if (params.some((p) => p === null)) {
    sendLegacyError(ctx, 400, 'invalid_request', 'malformed percent-encoding in the path');
    return true;
  }
  await hit.route.run(ctx, ...(params as string[]));
  return true;
};
