// POST /api/v2/jobs: a single-use Idempotency-Key claimed on arrival, the body as published
// (`workflow`, a closed `extra_data`, the reference server's `metadata` and `priority`), typed
// asset references resolved, deployment and engine refusals as envelopes. A refusal that made
// nothing releases the key; an unknown outcome (the engine down, a failure) keeps it.
import { SubmitRefused, WorkflowRejected, type EngineJob, type RequestContext } from '../contract.js';
import { readJson, sendJson, sendJobsError } from '../http-kit.js';
import { HandlerCrash, readProxyJson, sendCrashPage } from '../self-hosted/plain.js';
import { engineRefusal } from '../self-hosted/job-refusal.js';
import type { Graph } from '../self-hosted/prompt.js';
import { summarizeNodeErrors } from '../engine/summary.js';
import { partnerKeyFields } from '../core/names.js';
import { labelMapProblem, labelStringProblem, metadataDialect } from './dialect.js';
import { resolveAssetReferences } from './asset-refs.js';
import { claimKey } from './idempotency.js';
import { jobJson } from './view.js';

/** Retry-After seconds for the deployment states that can still clear. */
export const DEPLOYMENT_RETRY_AFTER = { not_ready: 5, unavailable: 10 } as const;

/** Fields the published contract reserves for later and refuses today. */
const RESERVED_FIELDS = ['webhook_url', 'inputs'];

interface Refusal {
  refused: true;
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** The outcome is unknown to the caller: the key stays claimed. */
  keepKey?: boolean;
}

function refusal(status: number, code: string, message: string, more: Omit<Refusal, 'refused' | 'status' | 'code' | 'message'> = {}): Refusal {
  return { refused: true, status, code, message, ...more };
}

/** Serverless only: why the deployment cannot take work now, if it cannot. */
function deploymentRefusal(ctx: RequestContext): Refusal | null {
  const { deployment, deploymentState, deploymentId } = ctx.state.options;
  if (deployment !== 'serverless') return null;
  switch (deploymentState) {
    case 'ready':
      return null;
    case 'not_ready':
      return refusal(429, 'deployment_not_ready', `deployment ${deploymentId} is starting and not ready yet`, {
        headers: { 'retry-after': String(DEPLOYMENT_RETRY_AFTER.not_ready) },
      });
    case 'unavailable':
      return refusal(429, 'deployment_unavailable', `deployment ${deploymentId} is ready but its GPU provider is not taking work yet`, {
        headers: { 'retry-after': String(DEPLOYMENT_RETRY_AFTER.unavailable) },
      });
    case 'stopped':
      return refusal(422, 'deployment_stopped', `deployment ${deploymentId} is stopped; an operator must start it`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The reference server's bounds on the advisory `priority`. */
const PRIORITY_BOUND = 1_000_000;

/** The body's fields beside the workflow, in the reference server's words where it has them. */
function bodyRefusal(ctx: RequestContext, body: Record<string, unknown>, keyFields: string[]): Refusal | null {
  const selfHosted = ctx.state.options.deployment === 'self-hosted';
  const extra = body.extra_data;
  if (extra !== undefined && extra !== null) {
    if (!isObject(extra)) return refusal(400, 'invalid_request', "'extra_data' must be an object.");
    if (Object.keys(extra).some((key) => !keyFields.includes(key))) {
      return refusal(400, 'invalid_request', `'extra_data' accepts only the '${keyFields[0]}' field.`);
    }
    const field = keyFields.find((key) => extra[key] !== undefined);
    if (field !== undefined && typeof extra[field] !== 'string') {
      return refusal(400, 'invalid_request', `'extra_data.${field}' must be a string.`);
    }
  }
  const { metadata, priority } = body;
  if (metadata !== undefined) {
    const dialect = metadataDialect(ctx);
    if (dialect === 'none') return refusal(422, 'metadata_not_supported', "'metadata' is not supported on this deployment.");
    const problem = dialect === 'map' ? labelMapProblem(metadata) : labelStringProblem(metadata);
    if (problem) return refusal(422, dialect === 'map' ? 'metadata_invalid' : 'invalid_request', problem);
  }
  if (priority !== undefined && !Number.isSafeInteger(priority)) return refusal(422, 'invalid_request', "'priority' must be an integer (advisory).");
  if (selfHosted && typeof priority === 'number' && Math.abs(priority) > PRIORITY_BOUND) {
    return refusal(422, 'invalid_request', `'priority' must be between -${PRIORITY_BOUND} and ${PRIORITY_BOUND}.`);
  }
  const reserved = RESERVED_FIELDS.find((field) => body[field] !== undefined);
  // The reference server counts the reserved fields as a workflow refusal.
  if (reserved && selfHosted) return refusal(422, 'invalid_workflow', "'webhook_url' and 'inputs' are reserved and not accepted.");
  if (reserved) return refusal(422, 'invalid_request', `'${reserved}' is reserved and not accepted yet.`);
  return null;
}

function rejectionRefusal(err: WorkflowRejected): Refusal {
  const details: Record<string, unknown> = {};
  if (Object.keys(err.nodeErrors).length > 0) details.node_errors = err.nodeErrors;
  if (err.unknownNodeClasses.length > 0) details.unknown_node_classes = err.unknownNodeClasses;
  return refusal(422, err.code, err.message, Object.keys(details).length > 0 ? { details } : {});
}

/** Makes the job, or says why not. */
function attempt(ctx: RequestContext, body: unknown): EngineJob | Refusal {
  const early = deploymentRefusal(ctx);
  if (early) return early;
  if (!isObject(body) || !('workflow' in body)) {
    if (ctx.state.options.deployment === 'self-hosted') return refusal(422, 'invalid_workflow', "Missing 'workflow' (API-format graph).");
    return refusal(422, 'invalid_workflow', 'the body must be {"workflow": {...}, "extra_data": {...}}');
  }
  const invalid = bodyRefusal(ctx, body, partnerKeyFields(ctx.state));
  if (invalid) return invalid;
  if (ctx.state.options.engineState === 'down') {
    // As the reference server with its engine stopped: the key was claimed, no job was made.
    return refusal(503, 'upstream_error', 'unexpected failure in a backing service', { keepKey: true });
  }
  const refs = resolveAssetReferences(ctx, body.workflow);
  if (Object.keys(refs.missing).length > 0) {
    return refusal(422, 'missing_asset', `workflow refused: ${summarizeNodeErrors(refs.missing)}`, { details: { node_errors: refs.missing } });
  }
  const { deployment } = ctx.state.options;
  try {
    return ctx.state.engine.submit(refs.workflow, (body.extra_data ?? undefined) as Record<string, unknown> | undefined, 'v2', {
      ...(deployment === 'serverless' && ctx.deploymentId !== null ? { deploymentId: ctx.deploymentId } : {}),
      ...(body.metadata !== undefined ? { metadata: body.metadata as string | Record<string, string> } : {}),
      ...(typeof body.priority === 'number' && deployment === 'self-hosted' ? { priority: body.priority } : {}),
      inputAssets: refs.inputAssets,
    });
  } catch (err) {
    if (err instanceof WorkflowRejected && deployment === 'self-hosted' && err.code === 'invalid_workflow') {
      const refused = engineRefusal(ctx.state, refs.workflow as Graph, err);
      return refusal(422, 'invalid_workflow', refused.message, { details: { node_errors: refused.nodeErrors } });
    }
    if (err instanceof WorkflowRejected) return rejectionRefusal(err);
    if (err instanceof SubmitRefused) {
      const headers: Record<string, string> = err.retryAfterSeconds !== undefined ? { 'retry-after': String(err.retryAfterSeconds) } : {};
      return refusal(err.status, err.code, err.message, { headers });
    }
    throw err;
  }
}

export async function submitJob(ctx: RequestContext): Promise<void> {
  const claim = claimKey(ctx, 'jobs');
  if (!claim) return;
  let body: unknown;
  try {
    // The reference server reads the body whatever its Content-Type.
    body = await (ctx.state.options.deployment === 'self-hosted' ? readProxyJson(ctx) : readJson(ctx));
  } catch (err) {
    if (err instanceof HandlerCrash) return sendCrashPage(ctx);
    claim.release(); // an unreadable body (400, 413, 415) made nothing
    throw err;
  }
  const outcome = attempt(ctx, body);
  if ('refused' in outcome) {
    if (!outcome.keepKey) claim.release();
    return sendJobsError(ctx, outcome.status, outcome.code, outcome.message, outcome.details, outcome.headers);
  }
  const json = jobJson(ctx, outcome, { submitted: true });
  // The reference server sends no Location with its 201.
  const location: Record<string, string> = ctx.state.options.deployment === 'self-hosted' ? {} : { location: (json.urls as { self: string }).self };
  sendJson(ctx, 201, json, location);
}
