// POST /api/v2/jobs: deployment checks, idempotent submission, engine refusals as envelopes.
import { SubmitRefused, WorkflowRejected, type RequestContext } from '../contract.js';
import { readJson, sendJson, sendJobsError } from '../http-kit.js';
import { fingerprint, idempotencyKey, idempotencyStore } from './idempotency.js';
import { jobJson } from './view.js';

/** Retry-After seconds for the deployment states that can still clear. */
export const DEPLOYMENT_RETRY_AFTER = { not_ready: 5, unavailable: 10 } as const;

/** Serverless only: answers and returns true when the deployment cannot take work. */
function refusedByDeployment(ctx: RequestContext): boolean {
  const { deployment, deploymentState, deploymentId } = ctx.state.options;
  if (deployment !== 'serverless') return false;
  switch (deploymentState) {
    case 'ready':
      return false;
    case 'not_ready':
      sendJobsError(ctx, 429, 'deployment_not_ready', `deployment ${deploymentId} is starting and not ready yet`, null,
        { 'retry-after': String(DEPLOYMENT_RETRY_AFTER.not_ready) });
      return true;
    case 'unavailable':
      sendJobsError(ctx, 429, 'deployment_unavailable', `deployment ${deploymentId} is ready but its GPU provider is not taking work yet`, null,
        { 'retry-after': String(DEPLOYMENT_RETRY_AFTER.unavailable) });
      return true;
    case 'stopped':
      sendJobsError(ctx, 422, 'deployment_stopped', `deployment ${deploymentId} is stopped; an operator must start it`);
      return true;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function submitJob(ctx: RequestContext): Promise<void> {
  if (refusedByDeployment(ctx)) return;
  const body = await readJson(ctx);
  if (!isObject(body) || !('workflow' in body)) {
    return sendJobsError(ctx, 422, 'invalid_workflow', 'the body must be {"workflow": {...}, "extra_data": {...}}');
  }
  if (body.extra_data !== undefined && body.extra_data !== null && !isObject(body.extra_data)) {
    return sendJobsError(ctx, 422, 'invalid_workflow', '`extra_data` must be an object');
  }
  const key = idempotencyKey(ctx);
  const store = idempotencyStore(ctx, 'jobs');
  const print = fingerprint(body);
  if (key) {
    const seen = store.lookup(ctx, key, print);
    if (seen.kind === 'conflict') {
      return sendJobsError(ctx, 422, 'idempotency_key_reuse', 'this Idempotency-Key was used with a different request body');
    }
    const earlier = seen.kind === 'replay' ? ctx.state.engine.get(seen.result) : undefined;
    if (earlier) return sendJson(ctx, 200, jobJson(ctx, earlier));
  }
  let job;
  try {
    job = ctx.state.engine.submit(body.workflow, (body.extra_data ?? undefined) as Record<string, unknown> | undefined, 'v2',
      ctx.state.options.deployment === 'serverless' ? ctx.deploymentId ?? undefined : undefined);
  } catch (err) {
    if (err instanceof WorkflowRejected) {
      const details: Record<string, unknown> = {};
      if (Object.keys(err.nodeErrors).length > 0) details.node_errors = err.nodeErrors;
      if (err.unknownNodeClasses.length > 0) details.unknown_node_classes = err.unknownNodeClasses;
      return sendJobsError(ctx, 422, err.code, err.message, Object.keys(details).length > 0 ? details : undefined);
    }
    if (err instanceof SubmitRefused) {
      const headers: Record<string, string> = err.retryAfterSeconds !== undefined ? { 'retry-after': String(err.retryAfterSeconds) } : {};
      return sendJobsError(ctx, err.status, err.code, err.message, undefined, headers);
    }
    throw err;
  }
  if (key) store.remember(ctx, key, print, job.id);
  const json = jobJson(ctx, job);
  sendJson(ctx, 201, json, { location: (json.urls as { self: string }).self });
}
