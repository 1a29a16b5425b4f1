// Model id and page-cursor grammar, from the service interface: "B. Router catalog resources"
// (RouterModelId, RouterProviderSegment, RouterModelSegment, RouterPageCursor) and "Limits". The
// dev-server validates path parameters and builds its catalog with these, and the CLI checks ids
// with them before any request, so listed and accepted ids cannot drift. Pinned by
// test/unit/protocol-golden.test.ts against test/fixtures/protocol/model-ids.json. The routes are
// the interface's `/v1` ones, or the published router's `/v2` ones (models.ts, RouterApi).
import type { RouterApi } from './models.js';

const SEGMENT = /^[a-z0-9]+([._-][a-z0-9]+)*$/;
export const PROVIDER_MAX = 64;
export const MODEL_MAX = 128;
export const MODEL_ID_MAX = 193;
export const CURSOR_PATTERN = /^[A-Za-z0-9._~+/=-]+$/;
export const CURSOR_MAX = 512;

export type SegmentKind = 'provider' | 'model';

/** Why `value` is not a valid segment, or undefined when it is. */
export function segmentProblem(kind: SegmentKind, value: string): string | undefined {
  const max = kind === 'provider' ? PROVIDER_MAX : MODEL_MAX;
  if (value.length === 0) return `the ${kind} segment is empty`;
  if (value.length > max) return `the ${kind} segment is ${value.length} characters long; at most ${max} are allowed`;
  if (!SEGMENT.test(value)) {
    return `the ${kind} segment ${JSON.stringify(value)} must be lowercase letters and digits, in runs joined by single '.', '_' or '-' (pattern ${SEGMENT.source})`;
  }
  return undefined;
}

export interface ModelRef {
  provider: string;
  model: string;
  id: string;
}

export class ModelIdError extends Error {}

/** Parses `provider/model`; throws ModelIdError naming the rule that failed. */
export function parseModelId(id: string): ModelRef {
  const parts = id.split('/');
  if (parts.length !== 2) {
    throw new ModelIdError(`model id ${JSON.stringify(id)} must be exactly provider/model (one '/')`);
  }
  const [provider, model] = parts as [string, string];
  const problem = segmentProblem('provider', provider) ?? segmentProblem('model', model);
  if (problem) throw new ModelIdError(`model id ${JSON.stringify(id)}: ${problem}`);
  if (id.length > MODEL_ID_MAX) throw new ModelIdError(`model id is ${id.length} characters long; at most ${MODEL_ID_MAX} are allowed`);
  return { provider, model, id };
}

/**
 * Whether `provider/model` is a valid model id: parseModelId's rules on the two segments, building
 * nothing (a catalog walk checks 10 000 entries).
 */
export function isModelIdOf(provider: string, model: string): boolean {
  const length = provider.length + 1 + model.length;
  return provider.length > 0 && provider.length <= PROVIDER_MAX && model.length > 0 && model.length <= MODEL_MAX && length <= MODEL_ID_MAX && SEGMENT.test(provider) && SEGMENT.test(model);
}

/** parseModelId's verdict without its error: a second '/' fails the model segment's pattern. */
export function isModelId(id: string): boolean {
  const slash = id.indexOf('/');
  return slash >= 0 && isModelIdOf(id.slice(0, slash), id.slice(slash + 1));
}

/** The catalog route of a router generation: the interface's `/v1/models`, or the published `/v2/models`. */
export function modelsPath(api: RouterApi = 'v1'): string {
  return `/${api}/models`;
}

/** The call path of a model under the router base ("Endpoints", "B. Router"): segments percent-encoded. */
export function modelPath(ref: { provider: string; model: string }, api: RouterApi = 'v1'): string {
  return `${modelsPath(api)}/${encodeURIComponent(ref.provider)}/${encodeURIComponent(ref.model)}`;
}

/** Published router, `RouterQueueRequestId`: a lowercase UUID, at most 36 characters. */
export const QUEUE_REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Why `value` cannot be a queued request id, or undefined when it can. */
export function requestIdProblem(value: string): string | undefined {
  return QUEUE_REQUEST_ID.test(value) ? undefined : `request id ${JSON.stringify(value.slice(0, 60))} is not a lowercase UUID (like 6f1a1a6e-6a53-4a5f-9d3a-2b3b0a1f9c21)`;
}

/** Published router: the queue's routes of a model (`/v2` only), each request under its id. */
export function requestsPath(ref: { provider: string; model: string }): string {
  return `${modelPath(ref, 'v2')}/requests`;
}

export function requestPath(ref: { provider: string; model: string }, requestId: string, tail: '' | 'status' | 'cancel' = ''): string {
  return `${requestsPath(ref)}/${encodeURIComponent(requestId)}${tail ? `/${tail}` : ''}`;
}
