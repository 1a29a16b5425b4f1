// The legacy API (cloud API v1, deprecated) of the dev-server: every `/api/...` path outside `/api/v2`,
// plus the `/ws` WebSocket. The core has already checked `X-API-Key` before this runs.
import type { RouteHandler } from '../contract.js';
import { familyOfPath } from '../../protocol/api-families.js';
import { matchRoute, type Route } from '../route-table.js';
import { sendLegacyError } from '../http-kit.js';
import { features, objectInfo, objectInfoOfClass } from './info.js';
import { jobStatus } from './job-status.js';
import { jobDetail, listJobs } from './jobs.js';
import { interrupt, getCloudQueue, postQueue } from './queue.js';
import { submitPrompt } from './prompt.js';
import { uploadImage, uploadMask } from './upload.js';
import { view } from './view.js';
import { CLOUD_USERDATA_ROUTES } from '../userdata/cloud-routes.js';
import { LIBRARY_ROUTES } from '../library/routes.js';

export { attachLegacyWebSocket } from './socket.js';
export { checkLegacyCredential } from './access.js';

const ROUTES: Route[] = [
  { method: 'GET', pattern: /^\/api\/object_info$/, run: objectInfo },
  { method: 'GET', pattern: /^\/api\/object_info\/([^/]+)$/, run: objectInfoOfClass },
  { method: 'GET', pattern: /^\/api\/features$/, run: features },
  { method: 'POST', pattern: /^\/api\/upload\/image$/, run: uploadImage },
  { method: 'POST', pattern: /^\/api\/upload\/mask$/, run: uploadMask },
  { method: 'POST', pattern: /^\/api\/prompt$/, run: submitPrompt },
  { method: 'GET', pattern: /^\/api\/job\/([^/]+)\/status$/, run: jobStatus },
  { method: 'GET', pattern: /^\/api\/jobs$/, run: listJobs },
  { method: 'GET', pattern: /^\/api\/jobs\/([^/]+)$/, run: jobDetail },
  { method: 'GET', pattern: /^\/api\/view$/, run: view },
  { method: 'GET', pattern: /^\/api\/queue$/, run: getCloudQueue },
  { method: 'POST', pattern: /^\/api\/queue$/, run: postQueue },
  { method: 'POST', pattern: /^\/api\/interrupt$/, run: interrupt },
  ...CLOUD_USERDATA_ROUTES,
  ...LIBRARY_ROUTES,
];

export const handleLegacy: RouteHandler = async (ctx) => {
  if (familyOfPath(ctx.path) !== 'legacy' || !ctx.path.startsWith('/api/')) return false;
  const found = matchRoute(ROUTES, ctx.req.method, ctx.path);
  switch (found.kind) {
    case 'none':
      sendLegacyError(ctx, 404, 'not_found', `no route ${ctx.req.method} ${ctx.path}`);
      return true;
    case 'method-not-allowed':
      ctx.res.setHeader('allow', found.allow);
      sendLegacyError(ctx, 405, 'method_not_allowed', `${ctx.req.method} is not allowed on ${ctx.path}; use ${found.allow}`);
      return true;
    case 'bad-param':
      sendLegacyError(ctx, 400, 'invalid_request', 'malformed percent-encoding in the path');
      return true;
    case 'hit':
      await found.route.run(ctx, ...found.params);
      return true;
  }
};
