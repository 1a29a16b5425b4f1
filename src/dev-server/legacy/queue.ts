// GET/POST /api/queue and POST /api/interrupt: the queue in the local engine's tuples (served by the
// self-hosted deployment) and in the published cloud document's (`[number, prompt_id, workflow,
// output_node_ids, {create_time}]`); the cloud's POST /api/queue cancels pending jobs only
// (answering `{deleted, cleared}`), and its /api/interrupt takes no id and stops every running job.
import type { DevState, EngineJob, RequestContext } from '../contract.js';
import { BodyError, parseJsonBody, readBody, sendJson, sendLegacyError } from '../http-kit.js';
import type { V1CloudQueueEntry, V1Queue, V1QueueDeleteResponse, V1QueueEntry } from '../../protocol/legacy.js';
import { promptNumber } from './numbers.js';
import { SECRET_EXTRA_DATA_FIELDS } from '../../protocol/maker-names.js';

/**
 * The prompt's extra_data as the engine shows it: whole while the prompt waits or runs (0.3.64's
 * /api/queue showed `api_key_comfy_org`), and in the history of 0.3.18, which keeps it; 0.3.64
 * removes the secrets when the prompt ends (recordings/engine-userdata.json, partner_key).
 */
function shownExtraData(state: DevState, job: EngineJob): Record<string, unknown> {
  const ended = job.status !== 'queued' && job.status !== 'running' && job.status !== 'canceling';
  if (!ended || state.options.engineVersion === '0.3.18') return job.extraData;
  return Object.fromEntries(Object.entries(job.extraData).filter(([key]) => !SECRET_EXTRA_DATA_FIELDS.has(key)));
}

function outputNodes(state: DevState, job: EngineJob): string[] {
  const info = state.engine.objectInfo();
  return Object.entries(job.workflow)
    .filter(([, node]) => info[node.class_type]?.output_node === true)
    .map(([id]) => id);
}

/** `[number, prompt_id, prompt, extra_data, outputs_to_execute]`: queue entries and the engine's history `prompt`. */
export function queueEntry(state: DevState, job: EngineJob): V1QueueEntry {
  return [promptNumber(state, job.id), job.id, job.workflow, shownExtraData(state, job), outputNodes(state, job)];
}

/** The published cloud tuple: output node ids fourth, then the job's creation time. */
function cloudQueueEntry(state: DevState, job: EngineJob): V1CloudQueueEntry {
  return [promptNumber(state, job.id), job.id, job.workflow, outputNodes(state, job), { create_time: Date.parse(job.created_at) }];
}

function queueOf(ctx: RequestContext, entry: (state: DevState, job: EngineJob) => unknown[]): V1Queue {
  const { engine } = ctx.state;
  const jobs = engine.list();
  const running = jobs.filter((job) => job.status === 'running' || job.status === 'canceling');
  const pending = jobs
    .filter((job) => job.status === 'queued')
    .sort((a, b) => (engine.queuePosition(a.id) ?? Infinity) - (engine.queuePosition(b.id) ?? Infinity));
  return { queue_running: running.map((job) => entry(ctx.state, job)), queue_pending: pending.map((job) => entry(ctx.state, job)) };
}

/** The engine's queue (the self-hosted deployment). */
export async function getQueue(ctx: RequestContext): Promise<void> {
  sendJson(ctx, 200, queueOf(ctx, queueEntry));
}

/** The cloud's queue, in the published tuple. */
export async function getCloudQueue(ctx: RequestContext): Promise<void> {
  sendJson(ctx, 200, queueOf(ctx, cloudQueueEntry));
}

/** A JSON object body that may also be empty (`POST /api/interrupt` usually has none). */
async function optionalJsonObject(ctx: RequestContext): Promise<Record<string, unknown>> {
  const raw = (await readBody(ctx)).toString('utf8').trim();
  if (raw === '') return {};
  const value = parseJsonBody(raw);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BodyError(400, 'the body must be a JSON object');
  return value as Record<string, unknown>;
}

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
    if (engine.get(id)?.status !== 'queued') continue; // a running job is stopped with /api/interrupt
    engine.cancel(id);
    deleted.push(id);
  }
  const answer: V1QueueDeleteResponse = { deleted, ...(clear === true ? { cleared: true } : {}) };
  sendJson(ctx, 200, answer);
}

/** Every running job of the (one) dev account; the published route takes no id, so any body is read and ignored. */
export async function interrupt(ctx: RequestContext): Promise<void> {
  await readBody(ctx);
  ctx.state.engine.interrupt();
  ctx.res.writeHead(200, { 'content-length': 0 });
  ctx.res.end();
}
