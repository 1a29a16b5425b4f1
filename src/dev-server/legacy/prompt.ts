// POST /api/prompt: submits a workflow as a v1 job. A refused workflow answers 400 in the local
// engine's shape: `{error: {type, message, details, extra_info}, node_errors: {...}}`.
import { SubmitRefused, WorkflowRejected, type NodeError, type RequestContext } from '../contract.js';
import { readJson, sendJson, sendLegacyError } from '../http-kit.js';
import type { V1NodeError, V1PromptResponse } from '../../protocol/legacy.js';
import { accountRefusal, presentedKey } from './access.js';
import { promptNumber } from './numbers.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function v1NodeErrors(nodeErrors: Record<string, NodeError>): Record<string, V1NodeError> {
  const out: Record<string, V1NodeError> = {};
  for (const [node, error] of Object.entries(nodeErrors)) {
    out[node] = {
      ...(error.class_type !== undefined ? { class_type: error.class_type } : {}),
      errors: error.errors.map((reason) => ({ ...reason, details: reason.details ?? '', extra_info: {} })),
      dependent_outputs: [],
    };
  }
  return out;
}

function sendRejected(ctx: RequestContext, err: WorkflowRejected): void {
  const hasNodeErrors = Object.keys(err.nodeErrors).length > 0;
  sendJson(ctx, 400, {
    error: {
      type: hasNodeErrors ? 'prompt_outputs_failed_validation' : 'invalid_prompt',
      message: err.message,
      details: err.unknownNodeClasses.length > 0 ? `unknown node classes: ${err.unknownNodeClasses.join(', ')}` : '',
      extra_info: { code: err.code, ...(err.unknownNodeClasses.length > 0 ? { unknown_node_classes: err.unknownNodeClasses } : {}) },
    },
    node_errors: v1NodeErrors(err.nodeErrors),
  });
}

function sendBadRequest(ctx: RequestContext, type: string, message: string): void {
  sendJson(ctx, 400, { error: { type, message, details: '', extra_info: {} }, node_errors: {} });
}

export async function submitPrompt(ctx: RequestContext): Promise<void> {
  const body = await readJson(ctx);
  if (!isObject(body)) return sendBadRequest(ctx, 'invalid_request', 'the body must be a JSON object');
  if (body.prompt === undefined) return sendBadRequest(ctx, 'no_prompt', 'No prompt provided');
  if (!isObject(body.prompt)) return sendBadRequest(ctx, 'invalid_prompt', '`prompt` must be a workflow object keyed by node id');
  if (body.extra_data !== undefined && !isObject(body.extra_data)) {
    return sendBadRequest(ctx, 'invalid_request', '`extra_data` must be an object');
  }
  const refusal = accountRefusal(ctx.state, presentedKey(ctx.req));
  if (refusal) return sendLegacyError(ctx, refusal.status, refusal.type, refusal.message);
  let jobId: string;
  try {
    jobId = ctx.state.engine.submit(body.prompt, body.extra_data as Record<string, unknown> | undefined, 'v1', ctx.deploymentId !== null ? { deploymentId: ctx.deploymentId } : {}).id;
  } catch (err) {
    if (err instanceof WorkflowRejected) return sendRejected(ctx, err);
    if (err instanceof SubmitRefused) {
      if (err.retryAfterSeconds !== undefined) ctx.res.setHeader('retry-after', String(err.retryAfterSeconds));
      return sendLegacyError(ctx, err.status, err.code, err.message);
    }
    throw err;
  }
  const answer: V1PromptResponse = { prompt_id: jobId, number: promptNumber(ctx.state, jobId), node_errors: {} };
  sendJson(ctx, 200, answer);
}
