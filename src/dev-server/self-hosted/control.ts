// POST /queue and POST /interrupt as the engine answers them: 200 with an empty body. `delete`
// removes pending prompts only (a running one is stopped with /interrupt), `clear` empties the
// pending queue, and /interrupt stops whatever is running (0.3.18 reads no prompt id from it).
import type { RequestContext } from '../contract.js';
import { isObject } from '../../protocol/openapi-document.js';
import { readEngineJson, sendBare } from './plain.js';

export async function postEngineQueue(ctx: RequestContext): Promise<void> {
  const body = await readEngineJson(ctx);
  const request = isObject(body) ? body : {};
  const { engine } = ctx.state;
  const pending = new Set(engine.list().filter((job) => job.status === 'queued').map((job) => job.id));
  const targets = request.clear === true ? [...pending] : Array.isArray(request.delete) ? request.delete.filter((id): id is string => typeof id === 'string') : [];
  for (const id of targets) if (pending.has(id)) engine.cancel(id);
  sendBare(ctx, 200);
}

export async function interruptEngine(ctx: RequestContext): Promise<void> {
  ctx.state.engine.interrupt();
  sendBare(ctx, 200);
}
