// POST /prompt as the engine answers it: 200 `{prompt_id, number, node_errors: {}}`, and the four
// refusals the observations record, each 400 (0.3.18 / 0.3.64 where they differ):
//   unknown class        {error: {type: invalid_prompt, ...}, node_errors: [] / {}}
//   failed validation    {error: {type: prompt_outputs_failed_validation, ...}, node_errors: {node: {...}}}
//   no output node       {error: {type: prompt_no_outputs, ...}, node_errors: [] / {}}
//   no `prompt` key      {error: "no prompt", node_errors: []} / {error: {type: no_prompt, ...}, node_errors: {}}
// A client-supplied `prompt_id` is used as given by 0.3.64 and ignored by 0.3.18. The `client_id`
// is kept in extra_data: the WebSocket sends the prompt's lifecycle messages to that client only.
import { SubmitRefused, WorkflowRejected, type DevState, type RequestContext } from '../contract.js';
import { sendJson, sendLegacyError } from '../http-kit.js';
import { isObject } from '../../protocol/openapi-document.js';
import { readEngineJson } from './plain.js';
import { promptNumber } from '../legacy/numbers.js';
import { engineTraits } from './version.js';

export type Graph = Record<string, { class_type?: unknown; inputs?: unknown }>;

/** What a refusal without per-node errors carries as `node_errors`: a list on 0.3.18, a dict later. */
function noNodeErrors(ctx: RequestContext): unknown[] | Record<string, never> {
  return engineTraits(ctx.state).refusalsAsObjects ? {} : [];
}

function refuse(ctx: RequestContext, type: string, message: string, details: string, nodeErrors: unknown = noNodeErrors(ctx)): void {
  sendJson(ctx, 400, { error: { type, message, details, extra_info: {} }, node_errors: nodeErrors });
}

function refuseNoPrompt(ctx: RequestContext): void {
  if (engineTraits(ctx.state).refusalsAsObjects) return refuse(ctx, 'no_prompt', 'No prompt provided', 'No prompt provided');
  sendJson(ctx, 400, { error: 'no prompt', node_errors: [] });
}

/** An id the imitation takes as given: what a real engine would route to its own history path. */
const USABLE_ID = /^[\w.:-]{1,128}$/;

function clientPromptId(ctx: RequestContext, body: Record<string, unknown>): string | undefined {
  if (!engineTraits(ctx.state).takesPromptId) return undefined;
  return typeof body.prompt_id === 'string' && USABLE_ID.test(body.prompt_id) ? body.prompt_id : undefined;
}

export function outputNodeIds(state: DevState, graph: Graph): string[] {
  const info = state.engine.objectInfo();
  return Object.entries(graph)
    .filter(([, node]) => typeof node?.class_type === 'string' && info[node.class_type]?.output_node === true)
    .map(([id]) => id);
}

/** The node ids an output node reads from, directly or through other nodes. */
export function upstreamOf(graph: Graph, start: string): Set<string> {
  const seen = new Set<string>();
  const pending = [start];
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const inputs = graph[id]?.inputs;
    if (!isObject(inputs)) continue;
    for (const value of Object.values(inputs)) if (Array.isArray(value) && typeof value[0] === 'string') pending.push(value[0]);
  }
  return seen;
}

export function engineNodeErrors(state: DevState, graph: Graph, err: WorkflowRejected): Record<string, unknown> {
  const outputs = outputNodeIds(state, graph);
  const out: Record<string, unknown> = {};
  for (const [node, error] of Object.entries(err.nodeErrors)) {
    out[node] = {
      errors: error.errors.map((reason) => ({ type: reason.type, message: reason.message, details: reason.details ?? '', extra_info: {} })),
      dependent_outputs: outputs.filter((output) => upstreamOf(graph, output).has(node)),
      class_type: error.class_type ?? (typeof graph[node]?.class_type === 'string' ? graph[node].class_type : ''),
    };
  }
  return out;
}

function validationDetails(graph: Graph, err: WorkflowRejected): string {
  return Object.entries(err.nodeErrors)
    .map(([node, error]) => `${String(error.class_type ?? graph[node]?.class_type ?? '')} ${node}:\n${error.errors.map((r) => `- ${r.message}: ${r.details ?? ''}`).join('\n')}`)
    .join('\n');
}

function sendRefusal(ctx: RequestContext, graph: Graph, err: WorkflowRejected): void {
  const unknown = Object.entries(err.nodeErrors).find(([, e]) => e.errors.some((r) => r.type === 'unknown_node_class'));
  if (unknown) {
    const [node, error] = unknown;
    return refuse(ctx, 'invalid_prompt', `Cannot execute because node ${String(error.class_type ?? graph[node]?.class_type)} does not exist.`, `Node ID '#${node}'`);
  }
  if (Object.keys(err.nodeErrors).length > 0) {
    return refuse(ctx, 'prompt_outputs_failed_validation', 'Prompt outputs failed validation', validationDetails(graph, err), engineNodeErrors(ctx.state, graph, err));
  }
  if (isObject(graph) && outputNodeIds(ctx.state, graph).length === 0) return refuse(ctx, 'prompt_no_outputs', 'Prompt has no outputs', '');
  refuse(ctx, 'invalid_prompt', err.message, '');
}

export async function submitEnginePrompt(ctx: RequestContext): Promise<void> {
  const body = await readEngineJson(ctx);
  if (!isObject(body) || !('prompt' in body)) return refuseNoPrompt(ctx);
  const graph = body.prompt as Graph;
  const extra = isObject(body.extra_data) ? { ...body.extra_data } : {};
  if (typeof body.client_id === 'string') extra.client_id = body.client_id;
  let promptId: string;
  try {
    promptId = ctx.state.engine.submit(graph, extra, 'v1', { promptId: clientPromptId(ctx, body) }).id;
  } catch (err) {
    if (err instanceof WorkflowRejected) return sendRefusal(ctx, graph, err);
    if (err instanceof SubmitRefused) return sendLegacyError(ctx, err.status, err.code, err.message);
    throw err;
  }
  sendJson(ctx, 200, { prompt_id: promptId, number: promptNumber(ctx.state, promptId), node_errors: {} });
}
