// POST /queue and POST /interrupt as the engine answers them: 200 with an empty body. `delete`
// removes pending prompts only (a running one is stopped with /interrupt), `clear` empties the
// pending queue. /interrupt stops whatever runs; 0.3.64 reads `{prompt_id}` and then stops that
// prompt only, and only while it runs (0.3.18 ignores the body: naming a finished prompt stopped
// the running one).
import type { RequestContext } from '../contract.js';
import { isObject } from '../../protocol/openapi-document.js';
import { readEngineJson, sendBare } from './plain.js';
import { engineTraits } from './version.js';
import { readBody } from '../http-kit.js';

export async function postEngineQueue(ctx: RequestContext): Promise<void> {
  const body = await readEngineJson(ctx);
  const request = isObject(body) ? body : {};
  const { engine } = ctx.state;
  const pending = new Set(engine.list().filter((job) => job.status === 'queued').map((job) => job.id));
  const targets = request.clear === true ? [...pending] : Array.isArray(request.delete) ? request.delete.filter((id): id is string => typeof id === 'string') : [];
  for (const id of targets) if (pending.has(id)) engine.cancel(id);
  sendBare(ctx, 200);
}

/** The body's `prompt_id`, when the body is JSON naming one (an empty or other body names none). */
async function namedPrompt(ctx: RequestContext): Promise<string | undefined> {
  const raw = (await readBody(ctx)).toString('utf8');
  try {
    const body: unknown = JSON.parse(raw);
    return isObject(body) && typeof body.prompt_id === 'string' ? body.prompt_id : undefined;
  } catch {
    return undefined;
  }
}

export async function interruptEngine(ctx: RequestContext): Promise<void> {
  const named = await namedPrompt(ctx);
  const { engine } = ctx.state;
  if (named === undefined || !engineTraits(ctx.state).targetedInterrupt) engine.interrupt();
  else if (engine.get(named)?.status === 'running') engine.cancel(named);
  sendBare(ctx, 200);
}
