// The v1 family's tools, for a profile that points at a ComfyUI engine (or the deprecated cloud
// API v1): a prompt queued as `wes legacy prompt` queues it (refusals with their node errors, an
// id of wes's own on an engine), optionally waited for by polling its status, and the queue.
import { queueRow } from '../../command-kit/legacy/queue-row.js';
import { submit } from '../../command-kit/legacy/submit-prompt.js';
import { legacyClient } from '../../command-kit/legacy/shared.js';
import { promptPoll } from '../../features/legacy/poll-prompt.js';
import { isV1Success, isV1Terminal } from '../../protocol/legacy.js';
import { defineTool, type ToolCall } from '../tool.js';
import { workflowOf, WORKFLOW_SCHEMA, type WorkflowArg } from '../workflow-arg.js';
import { DEFAULT_WAIT_SECONDS, TIMEOUT_SCHEMA } from './follow.js';

interface PromptArgs {
  workflow: WorkflowArg;
  wait?: boolean;
  timeout_seconds?: number;
  convert?: boolean;
}

/** The prompt polled to its end, or to the call's deadline (then `finished: false`, no error). */
async function waitForPrompt(call: ToolCall, session: Awaited<ReturnType<typeof legacyClient>>, promptId: string, timeoutSeconds: number) {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutSeconds * 1000);
  const f = await call.open(deadline.signal);
  try {
    const state = await promptPoll(f, session.reader(), promptId, 1000)({
      notice: (level, line) => call.log(level, line),
      verbose: f.io.verbose,
      progress: (p) => call.progress(undefined, `prompt ${promptId} ${p.status ?? 'running'}`),
      event: (line) => call.log('info', line),
      stop: () => undefined,
    });
    return { state, finished: true };
  } catch (err) {
    if (!deadline.signal.aborted || call.f.signal.aborted) throw err;
    const state = await session.reader().read(promptId);
    return { state, finished: isV1Terminal(state.status) };
  } finally {
    clearTimeout(timer);
  }
}

const prompt = defineTool<PromptArgs>({
  name: 'engine_prompt',
  description:
    "Queue a workflow on a ComfyUI engine's own API (POST /prompt), where the profile points at an engine rather than a job API v2 server (prefer submit_job wherever the job API exists). " +
    'A refused workflow is an error result with the node errors. With wait, polls the prompt until it ends (bounded by timeout_seconds). A v1 prompt carries no idempotency key: it is never sent again by wes.',
  inputSchema: {
    type: 'object',
    properties: {
      workflow: WORKFLOW_SCHEMA,
      wait: { type: 'boolean', description: 'Poll the prompt until it ends (default false).' },
      timeout_seconds: TIMEOUT_SCHEMA,
      convert: { type: 'boolean', description: "Convert a UI-format save to the API format first, with the engine's node definitions (default false)." },
    },
    required: ['workflow'],
    additionalProperties: false,
  },
  annotations: { title: 'Queue a prompt on a ComfyUI engine', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run(call, args) {
    const { f } = call;
    const workflow = await workflowOf(f, args.workflow, args.convert === true);
    const session = await legacyClient(f, 'prompt');
    const { promptId, answer } = await submit(f, session, workflow, undefined);
    const queued = { prompt_id: promptId, number: answer.number ?? null, node_errors: answer.node_errors ?? {} };
    if (!args.wait) return { summary: `queued prompt ${promptId}`, structured: { ...queued, finished: false } };
    const { state, finished } = await waitForPrompt(call, session, promptId, args.timeout_seconds ?? DEFAULT_WAIT_SECONDS);
    const outputs = state.outputs.map((o) => ({ ...o }));
    const error = state.outcome?.kind === 'error' ? { type: state.outcome.exceptionType, message: state.outcome.exceptionMessage } : state.errorMessage ? { message: state.errorMessage } : undefined;
    return {
      summary: `prompt ${promptId} ${state.status}${finished ? '' : `: still running, wait again with engine_prompt's wait or engine_queue`}`,
      structured: { ...queued, status: state.status, finished, succeeded: finished && isV1Success(state.status), outputs, ...(error ? { error } : {}) },
    };
  },
});

const queue = defineTool<Record<string, never>>({
  name: 'engine_queue',
  description: "Read a ComfyUI engine's queue (GET /queue): the prompts running and pending, each with its number, prompt id, node count and output nodes.",
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  annotations: { title: "Read a ComfyUI engine's queue", readOnlyHint: true, openWorldHint: true },
  async run(call) {
    const { client } = await legacyClient(call.f, 'queue');
    const answer = await client.queue();
    const entry = (state: string) => (e: unknown) => {
      const [, number, prompt_id, nodes, outputs] = queueRow(state, e);
      return { state, number, prompt_id, nodes, output_nodes: outputs };
    };
    const running = answer.queue_running.map(entry('running'));
    const pending = answer.queue_pending.map(entry('pending'));
    return { summary: `${running.length} running, ${pending.length} pending`, structured: { running, pending } };
  },
});

export const ENGINE_TOOLS = [prompt, queue];
