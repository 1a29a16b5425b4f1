// Control routes for tests (loopback only): scripted faults, request counters, deployment state.
import type { RequestContext } from '../contract.js';
import { parseJsonBody, readBody, sendEmpty, sendJson, sendLegacyError } from '../http-kit.js';
import { ScriptedFaults, validateFaultSpec } from '../faults/table.js';
import { handleModelsControl } from '../models/index.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const DEPLOYMENT_STATES = ['ready', 'not_ready', 'unavailable', 'stopped'] as const;
const ENGINE_STATES = ['up', 'down'] as const;

export const DEV_PREFIX = '/__dev/';

/** Control routes take JSON whatever Content-Type a quick test script sends. */
async function readControlJson(ctx: RequestContext): Promise<unknown> {
  return parseJsonBody((await readBody(ctx)).toString('utf8'));
}

function pendingFaults(ctx: RequestContext): unknown[] {
  const table = ctx.state.faults;
  return table instanceof ScriptedFaults ? table.pending() : [];
}

async function handleFaults(ctx: RequestContext): Promise<void> {
  const { state, req } = ctx;
  if (req.method === 'DELETE') {
    state.faults.clear();
    return sendJson(ctx, 200, { pending: [] });
  }
  if (req.method === 'GET') return sendJson(ctx, 200, { pending: pendingFaults(ctx) });
  if (req.method !== 'POST') return sendLegacyError(ctx, 405, 'method_not_allowed', 'use GET, POST or DELETE');
  const body = await readControlJson(ctx);
  let specs;
  try {
    specs = (Array.isArray(body) ? body : [body]).map(validateFaultSpec);
  } catch (err) {
    return sendLegacyError(ctx, 400, 'invalid_fault', (err as Error).message);
  }
  for (const spec of specs) state.faults.add(spec);
  sendJson(ctx, 201, { pending: pendingFaults(ctx) });
}

function handleRequests(ctx: RequestContext): void {
  if (ctx.req.method === 'DELETE') {
    ctx.state.requestCounts.clear();
    return sendEmpty(ctx, 204);
  }
  sendJson(ctx, 200, Object.fromEntries(ctx.state.requestCounts));
}

/** GET reads one of the server's switches, POST `{state}` sets it. */
async function handleSwitch<T extends string>(ctx: RequestContext, values: readonly T[], get: () => T, set: (value: T) => void): Promise<void> {
  if (ctx.req.method === 'GET') return sendJson(ctx, 200, { state: get() });
  const body = (await readControlJson(ctx)) as { state?: unknown } | null;
  const next = body?.state;
  if (!values.includes(next as T)) {
    return sendLegacyError(ctx, 400, 'invalid_state', `state must be one of ${values.join(', ')}`);
  }
  set(next as T);
  sendJson(ctx, 200, { state: next });
}

/** Answers every /__dev/ path. /__dev/requests is always on; the rest needs `faults`. */
export async function handleDevRoutes(ctx: RequestContext): Promise<void> {
  const remote = ctx.req.socket.remoteAddress ?? '';
  const route = ctx.path.slice(DEV_PREFIX.length);
  if (route.startsWith('router/') && LOOPBACK.has(remote) && (await handleModelsControl(ctx))) return;
  const known = route === 'faults' || route === 'requests' || route === 'deployment' || route === 'engine';
  if (!LOOPBACK.has(remote) || !known || (route !== 'requests' && !ctx.state.options.faults)) {
    return sendLegacyError(ctx, 404, 'not_found', 'no such control route (faults need --faults, loopback only)');
  }
  if (route === 'requests') return handleRequests(ctx);
  const { options } = ctx.state;
  if (route === 'deployment') return handleSwitch(ctx, DEPLOYMENT_STATES, () => options.deploymentState, (v) => (options.deploymentState = v));
  if (route === 'engine') return handleSwitch(ctx, ENGINE_STATES, () => options.engineState, (v) => (options.engineState = v));
  return handleFaults(ctx);
}
