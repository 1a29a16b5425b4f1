// GET/POST /api/queue and POST /api/interrupt, in the local engine's shapes.
import type { DevState, EngineJob, RequestContext } from '../contract.js';
import { BodyError, parseJsonBody, readBody, sendJson, sendLegacyError } from '../http-kit.js';
import type { V1Queue, V1QueueEntry } from '../../protocol/legacy.js';
import { promptNumber } from './numbers.js';

/** extra_data keys that hold secrets and never come back out (the local engine drops them too). */
const SECRET_EXTRA_KEYS = new Set(['api_key_service_org', 'auth_token_service_org']);

function publicExtraData(extra: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(extra).filter(([key]) => !SECRET_EXTRA_KEYS.has(key)));
}

function outputNodes(state: DevState, job: EngineJob): string[] {
  const info = state.engine.objectInfo();
  return Object.entries(job.workflow)
    .filter(([, node]) => info[node.class_type]?.output_node === true)
    .map(([id]) => id);
}

/** `[number, prompt_id, prompt, extra_data, outputs_to_execute]`: queue entries and the engine's history `prompt`. */
export function queueEntry(state: DevState, job: EngineJob): V1QueueEntry {
  return [promptNumber(state, job.id), job.id, job.workflow, publicExtraData(job.extraData), outputNodes(state, job)];
}

export async function getQueue(ctx: RequestContext): Promise<void> {
  const { engine } = ctx.state;
  const jobs = engine.list();
  const running = jobs.filter((job) => job.status === 'running' || job.status === 'canceling');
  const pending = jobs
    .filter((job) => job.status === 'queued')
    .sort((a, b) => (engine.queuePosition(a.id) ?? Infinity) - (engine.queuePosition(b.id) ?? Infinity));
  const queue: V1Queue = { queue_running: running.map((job) => queueEntry(ctx.state, job)), queue_pending: pending.map((job) => queueEntry(ctx.state, job)) };
  sendJson(ctx, 200, queue);
}

/** A JSON object body that may also be empty (`POST /api/interrupt` usually has none). */
async function optionalJsonObject(ctx: RequestContext): Promise<Record<string, unknown>> {
  const raw = (await readBody(ctx)).toString('utf8').trim();
  if (raw === '') return {};
  const value = parseJsonBody(raw);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BodyError(400, 'the body must be a JSON object');
  return value as Record<string, unknown>;
}

const ACTIVE = new Set(['queued', 'running', 'canceling']);

export async function postQueue(ctx: RequestContext): Promise<void> {
  const body = await optionalJsonObject(ctx);
  const { delete: ids, clear } = body;
  if (ids !== undefined && (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string'))) {
    return sendLegacyError(ctx, 400, 'invalid_request', '`delete` must be an array of prompt ids');
  }
  if (clear !== undefined && typeof clear !== 'boolean') return sendLegacyError(ctx, 400, 'invalid_request', '`clear` must be a boolean');
  if (ids === undefined && clear !== true) return sendLegacyError(ctx, 400, 'invalid_request', 'send `delete` (prompt ids) or `clear: true`');
  const { engine } = ctx.state;
  const targets = new Set<string>(ids as string[] | undefined);
  if (clear) for (const job of engine.list()) if (job.status === 'queued') targets.add(job.id);
  const deleted: string[] = [];
  for (const id of targets) {
    const before = engine.get(id);
    if (!before || !ACTIVE.has(before.status)) continue;
    engine.cancel(id);
    deleted.push(id);
  }
  sendJson(ctx, 200, { deleted });
}

export async function interrupt(ctx: RequestContext): Promise<void> {
  const body = await optionalJsonObject(ctx);
  if (body.prompt_id !== undefined && typeof body.prompt_id !== 'string') {
    return sendLegacyError(ctx, 400, 'invalid_request', '`prompt_id` must be a string');
  }
  const { engine } = ctx.state;
  const running = engine.list().filter((job) => job.status === 'running').map((job) => job.id);
  if (typeof body.prompt_id === 'string') {
    const interrupted = running.includes(body.prompt_id) ? [body.prompt_id] : [];
    if (interrupted.length > 0) engine.cancel(body.prompt_id);
    return sendJson(ctx, 200, { interrupted });
  }
  engine.interrupt();
  sendJson(ctx, 200, { interrupted: running });
}
