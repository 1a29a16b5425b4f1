// A models command sent where no model router answers (neither the interface's /v1 routes nor the
// published /v2 ones): said in one sentence naming what the server is instead, when wes can tell
// (a self-hosted ComfyUI engine, a job API server), and how to point wes at a router.
import type { Factory } from '../../factory.js';
import type { WesError } from '../../errors.js';
import { noRouterError, type NoRouterInfo } from '../../clients/models/generation.js';
import { isRecord } from '../../clients/shared/response-check.js';
import { describeEngine, engineOf } from '../legacy/engine.js';

const ANY_ERROR_STATUS = Array.from({ length: 200 }, (_, i) => 400 + i);
const PROBE_TIMEOUT_MS = 10_000;

/** Whether the base URL answers as the job API does: its own error envelope for a job that cannot exist. */
async function servesJobApi(f: Factory): Promise<boolean> {
  try {
    const res = await f.http().buffer({ family: 'jobs', url: '/api/v2/jobs/00000000-0000-0000-0000-000000000000', accept: ANY_ERROR_STATUS, retries: 0, timeoutMs: PROBE_TIMEOUT_MS });
    const body: unknown = JSON.parse(res.body.toString('utf8'));
    return isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string';
  } catch {
    return false;
  }
}

/** "this server is …, which has no model router", when the router URL is a server wes knows. */
async function whatServes(f: Factory): Promise<string | undefined> {
  const s = f.settings();
  if (s.routerUrl === s.engineUrl) {
    const engine = await engineOf(f).catch(() => null);
    if (engine?.kind === 'self-hosted') return `this server is ${describeEngine(engine)}, which has no model router`;
  }
  if (s.routerUrl === s.baseUrl && (await servesJobApi(f))) return 'this server is a job API server (it answers /api/v2), which serves no model router';
  return undefined;
}

const NO_ROUTER_HINT = 'point wes at the model router: --router-url URL, WES_ROUTER_URL, or `wes config set router_url URL`';

/** How to point wes at a router (and, with routes pinned, how to let it find them). */
function noRouterHint(info: NoRouterInfo): string {
  return info.pinned ? `${NO_ROUTER_HINT}; or let wes find the routes: --router-api auto (router_api is ${info.pinned} now)` : NO_ROUTER_HINT;
}

export async function explainNoRouter(f: Factory, info: NoRouterInfo): Promise<WesError> {
  if (info.needs === 'v2' && info.known === 'v1') return noRouterError(info, undefined, noRouterHint(info));
  return noRouterError(info, await whatServes(f), noRouterHint(info));
}
