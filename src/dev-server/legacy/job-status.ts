// GET /api/job/{prompt_id}/status: `status` in the interface's words, and the published document's
// other fields (id, times, and `error_message` once it failed).
import type { RequestContext } from '../contract.js';
import { sendJson, sendLegacyError } from '../http-kit.js';
import type { V1JobStatus } from '../../protocol/legacy.js';
import { settleMs, v1Status } from './status.js';

export async function jobStatus(ctx: RequestContext, promptId: string): Promise<void> {
  const job = ctx.state.engine.get(promptId);
  if (!job) return sendLegacyError(ctx, 404, 'not_found', `no job ${JSON.stringify(promptId)}`);
  const updated = job.completed_at ?? job.started_at ?? job.created_at;
  const answer: V1JobStatus = {
    id: job.id,
    status: v1Status(job, { now: Date.now(), settleMs: settleMs(ctx.state.options.stepMs) }),
    created_at: job.created_at,
    updated_at: updated,
    error_message: job.error?.message ?? null,
  };
  sendJson(ctx, 200, answer);
}
