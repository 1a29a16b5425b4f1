// GET /api/job/{prompt_id}/status
import type { RequestContext } from '../contract.js';
import { sendJson, sendLegacyError } from '../http-kit.js';
import type { V1JobStatus } from '../../protocol/legacy.js';
import { settleMs, v1Status } from './status.js';

export async function jobStatus(ctx: RequestContext, promptId: string): Promise<void> {
  const job = ctx.state.engine.get(promptId);
  if (!job) return sendLegacyError(ctx, 404, 'not_found', `no job ${JSON.stringify(promptId)}`);
  const answer: V1JobStatus = { status: v1Status(job, { now: Date.now(), settleMs: settleMs(ctx.state.options.stepMs) }) };
  sendJson(ctx, 200, answer);
}
