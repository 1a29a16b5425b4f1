// The v1 routes of the `self-hosted` deployment, written from the observations of real ComfyUI
// engines, 0.3.18 and 0.3.64 (`engineVersion`; transcribed in test/fixtures/comfyui-selfhosted/):
// every route served both bare and under `/api/`, no credential unless the dev-server was given
// --token, the static route's empty 404 for what the engine lacks (the cloud's
// `/api/job/<id>/status` and `/api/jobs`, and `/api/features` on 0.3.18), history and queue in
// the engine's shapes, empty-bodied POSTs, and /view answering with the bytes.
import type { RequestContext, RouteHandler } from '../contract.js';
import { matchRoute, type Route } from '../route-table.js';
import { sendJson } from '../http-kit.js';
import { objectInfo, objectInfoOfClass } from '../legacy/info.js';
import { getQueue } from '../legacy/queue.js';
import { uploadImage, uploadMask } from '../legacy/upload.js';
import { interruptEngine, postEngineQueue } from './control.js';
import { getHistory, getHistoryOf, postHistory } from './history.js';
import { sendPlainStatus } from './plain.js';
import { submitEnginePrompt } from './prompt.js';
import { systemStats } from './system-stats.js';
import { viewEngineFile } from './view.js';
import { ENGINE_FEATURES, engineTraits } from './version.js';
import { ENGINE_USERDATA_ROUTES } from '../userdata/engine-routes.js';

export { attachEngineHistory } from './history.js';
export { EngineMessageOrder } from './messages.js';
export { sendPlainStatus } from './plain.js';
export { engineRoutePath } from './paths.js';

async function queueRemaining(ctx: RequestContext): Promise<void> {
  const remaining = ctx.state.engine.list().filter((job) => job.status === 'queued' || job.status === 'running' || job.status === 'canceling').length;
  sendJson(ctx, 200, { exec_info: { queue_remaining: remaining } });
}

/** 0.3.64's GET /features; 0.3.18 has no such route (the static route's 404). */
async function engineFeatures(ctx: RequestContext): Promise<void> {
  if (!engineTraits(ctx.state).featureFlags) return sendPlainStatus(ctx, 404);
  sendJson(ctx, 200, ENGINE_FEATURES);
}

const ROUTES: Route[] = [
  { method: 'GET', pattern: /^\/api\/features$/, run: engineFeatures },
  { method: 'GET', pattern: /^\/api\/object_info$/, run: objectInfo },
  { method: 'GET', pattern: /^\/api\/object_info\/([^/]+)$/, run: objectInfoOfClass },
  { method: 'GET', pattern: /^\/api\/prompt$/, run: queueRemaining },
  { method: 'POST', pattern: /^\/api\/prompt$/, run: submitEnginePrompt },
  { method: 'GET', pattern: /^\/api\/history$/, run: getHistory },
  { method: 'POST', pattern: /^\/api\/history$/, run: postHistory },
  { method: 'GET', pattern: /^\/api\/history\/([^/]+)$/, run: getHistoryOf },
  { method: 'GET', pattern: /^\/api\/queue$/, run: getQueue },
  { method: 'POST', pattern: /^\/api\/queue$/, run: postEngineQueue },
  { method: 'POST', pattern: /^\/api\/interrupt$/, run: interruptEngine },
  { method: 'GET', pattern: /^\/api\/view$/, run: viewEngineFile },
  { method: 'POST', pattern: /^\/api\/upload\/image$/, run: uploadImage },
  { method: 'POST', pattern: /^\/api\/upload\/mask$/, run: uploadMask },
  { method: 'GET', pattern: /^\/api\/system_stats$/, run: systemStats },
  ...ENGINE_USERDATA_ROUTES,
];

/** Claims the v1 paths it serves; anything else falls through to the core's (plain-text) 404. */
export const handleSelfHosted: RouteHandler = async (ctx) => {
  const found = matchRoute(ROUTES, ctx.req.method === 'HEAD' ? 'GET' : ctx.req.method, ctx.path);
  switch (found.kind) {
    case 'none':
      return false;
    case 'method-not-allowed':
      // The static route takes every GET its API routes do not: 404 for a GET, 405 otherwise.
      sendPlainStatus(ctx, 404);
      return true;
    case 'bad-param':
      sendPlainStatus(ctx, 404);
      return true;
    case 'hit':
      await found.route.run(ctx, ...found.params);
      return true;
  }
};
