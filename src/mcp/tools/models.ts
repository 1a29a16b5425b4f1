// The model router's tools: the catalog, a model's input schema, and a run (its output as the
// router sent it; JSON as a value, a picture also as image content, other bytes saved to a file
// when asked), synchronously by the router's retry rules (one Idempotency-Key for every attempt:
// a call still running is collected, never run twice) or queued.
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { walkCatalog } from '../../clients/models/walk.js';
import { fieldRows } from '../../clients/models/schema-fields.js';
import { writeUnderPolicy } from '../../files/existing.js';
import { modelArg, modelsClient, schemaSource } from '../../command-kit/models/context.js';
import { sendModelCall } from '../../features/models/send.js';
import { submitQueued } from '../../features/models/queue.js';
import { modelCallReporter } from '../reporters.js';
import { LIST_LIMIT_MAX } from '../../protocol/models.js';
import { defineTool, str, type ToolCall, type ToolImage, type ToolOutput } from '../tool.js';
import { IMAGE_CONTENT_MAX_BYTES } from './files.js';

const MODEL = str('The model id, provider/model (list_models lists them).', { minLength: 3 });

const list = defineTool<{ provider?: string; all?: boolean; limit?: number; cursor?: string }>({
  name: 'list_models',
  description: 'List the runnable models of the model router (id, provider, model, billing): one page (limit, cursor), or the whole catalog with all. Filter by provider.',
  inputSchema: {
    type: 'object',
    properties: {
      provider: str('Only models of this provider.', { minLength: 1 }),
      all: { type: 'boolean', description: 'Walk every page of the catalog (default false: one page).' },
      limit: { type: 'integer', minimum: 1, maximum: LIST_LIMIT_MAX, description: 'Page size to ask for (the router clamps it; default 20).' },
      cursor: str('The next_cursor of the page before, for the next page.', { minLength: 1 }),
    },
    additionalProperties: false,
  },
  annotations: { title: 'List models', readOnlyHint: true, openWorldHint: true },
  async run(call, args) {
    const client = modelsClient(call.f);
    const keep = (e: { provider: string }) => args.provider === undefined || e.provider === args.provider;
    if (args.all) {
      const models = (await walkCatalog(client, { limit: args.limit ?? LIST_LIMIT_MAX, onRestart: (reason) => call.log('info', `the catalog changed during the walk (${reason}); starting over`) })).filter(keep);
      return { summary: `${models.length} model(s)`, structured: { models, has_more: false } };
    }
    const page = await client.listPage({ limit: args.limit, cursor: args.cursor });
    const models = page.data.filter(keep);
    return {
      summary: `${models.length} model(s)${page.has_more ? '; more follow (call again with cursor, or all: true)' : ''}`,
      structured: { models, has_more: page.has_more, ...(page.next_cursor ? { next_cursor: page.next_cursor } : {}) },
    };
  },
});

const schema = defineTool<{ model: string; refresh?: boolean }>({
  name: 'get_model_schema',
  description: "Read a model's input schema: its fields (name, type, required, default, constraints, description) and the OpenAPI document itself. Read it before run_model to build the input.",
  inputSchema: {
    type: 'object',
    properties: { model: MODEL, refresh: { type: 'boolean', description: 'Fetch the document again instead of the cached copy (default false).' } },
    required: ['model'],
    additionalProperties: false,
  },
  annotations: { title: "Get a model's input schema", readOnlyHint: true, openWorldHint: true },
  async run(call, args) {
    const ref = modelArg(args.model);
    const loaded = await schemaSource(call.f).load(ref, { refresh: args.refresh === true });
    const fields = fieldRows(loaded.doc);
    return { summary: `${ref.id} takes ${fields.length} input field(s): ${fields.map((r) => `${r.name}${r.required ? '*' : ''}`).join(', ')}`, structured: { model: ref.id, fields, schema: JSON.parse(loaded.text) as unknown } };
  },
});

interface RunArgs {
  model: string;
  input: Record<string, unknown>;
  queue?: boolean;
  output_path?: string;
  idempotency_key?: string;
}

/** The model's output as a tool answers it: JSON as a value, text as text, a small picture shown, other bytes saved to `output_path`. */
async function outputOf(call: ToolCall, model: string, body: Buffer, headers: Record<string, string>, args: Pick<RunArgs, 'output_path'>, key: string | undefined): Promise<ToolOutput> {
  const type = (headers['content-type'] ?? 'application/octet-stream').split(';')[0]!.trim().toLowerCase();
  const about = { model, ...(key ? { idempotency_key: key } : {}), content_type: type, size_bytes: body.length };
  let saved: string | undefined;
  if (args.output_path !== undefined) {
    await writeUnderPolicy(args.output_path, body, 'clobber', call.f.hashing());
    saved = resolve(args.output_path);
  }
  const where = saved ? { saved_to: saved } : {};
  if (type === 'application/json' || type.endsWith('+json')) {
    return { summary: `${model} answered${saved ? ` (saved to ${saved})` : ''}`, structured: { ...about, ...where, output: JSON.parse(body.toString('utf8')) as unknown } };
  }
  if (type.startsWith('text/')) return { summary: `${model} answered ${type}`, structured: { ...about, ...where, output: body.toString('utf8') } };
  const images: ToolImage[] = type.startsWith('image/') && body.length <= IMAGE_CONTENT_MAX_BYTES ? [{ data: body, mimeType: type }] : [];
  if (!saved && images.length === 0) throw new UsageError(`${model} answered ${body.length} bytes of ${type}, which a tool result cannot carry`, 'call again with output_path to save the bytes to a file (the same idempotency_key collects the same output)');
  return { summary: `${model} answered ${body.length} bytes of ${type}${saved ? `, saved to ${saved}` : ''}`, structured: { ...about, ...where }, images };
}

const run = defineTool<RunArgs>({
  name: 'run_model',
  description:
    'Run a model of the router with its own JSON input (get_model_schema says which fields). Synchronous by default: waits for the output (JSON comes back as a value, a small picture as an image, other bytes need output_path). ' +
    'With queue: true, queues it instead and returns the request handle (request_id, status). Every attempt carries one Idempotency-Key, so a call still running is collected, never run (or billed) twice.',
  inputSchema: {
    type: 'object',
    properties: {
      model: MODEL,
      input: { type: 'object', description: "The model's input, as its schema describes it. Example for dev/echo: {\"prompt\": \"hello\"}." },
      queue: { type: 'boolean', description: 'Queue the run (the router\'s queued delivery) and return its handle instead of waiting (default false).' },
      output_path: str('Save the output bytes to this local file too (replaced if it exists); needed for audio, video or large outputs.', { minLength: 1 }),
      idempotency_key: str('The Idempotency-Key (default: a new one). The same key collects the same output again.', { minLength: 1, maxLength: 255 }),
    },
    required: ['model', 'input'],
    additionalProperties: false,
  },
  annotations: { title: 'Run a model', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run(call, args) {
    const { f } = call;
    const ref = modelArg(args.model);
    const client = modelsClient(f);
    const body = Buffer.from(JSON.stringify(args.input));
    const key = args.idempotency_key ?? randomUUID();
    // The one keyed send of the models feature: a call in doubt names its key and how to collect it, in a tool call's words.
    const keyed = (what: string) => ({ key, what, again: `run_model with the same model and input and idempotency_key "${key}"`, newKey: 'leave out idempotency_key' });
    const reporter = modelCallReporter(call, ref.id);
    if (args.queue) {
      const { handle, replayed } = await submitQueued(f, client, ref, body, keyed('the queued submit'), reporter);
      return { summary: `queued ${ref.id} as request ${handle.request_id} (${handle.status}); collect it with get_model_result`, structured: { model: ref.id, idempotency_key: key, replayed, request: handle } };
    }
    const answer = await sendModelCall(f, () => client.runOnce(ref, body, key), keyed('the model run'), reporter);
    return outputOf(call, ref.id, answer.body, answer.headers, args, key);
  },
});

const show = defineTool<{ model: string }>({
  name: 'get_model',
  description: "Show one model of the router: its id, provider, model name and billing (whether a refusal by the provider's content policy is charged), and where its input schema is.",
  inputSchema: { type: 'object', properties: { model: MODEL }, required: ['model'], additionalProperties: false },
  annotations: { title: 'Get a model', readOnlyHint: true, openWorldHint: true },
  async run(call, args) {
    const model = await modelsClient(call.f).show(modelArg(args.model));
    return { summary: `${model.id} (provider ${model.provider})`, structured: { model } };
  },
});

const result = defineTool<{ model: string; request_id: string; output_path?: string }>({
  name: 'get_model_result',
  description: "Collect a queued model run's output (run_model with queue: true gave its request_id). While it is not ready, answers ready: false with its status and queue position (call again later); once ready, the output as run_model gives it.",
  inputSchema: {
    type: 'object',
    properties: {
      model: MODEL,
      request_id: str('The request id run_model returned.', { minLength: 1 }),
      output_path: str('Save the output bytes to this local file too (replaced if it exists).', { minLength: 1 }),
    },
    required: ['model', 'request_id'],
    additionalProperties: false,
  },
  annotations: { title: "Collect a queued model run's output", readOnlyHint: true, openWorldHint: true },
  async run(call, args) {
    const ref = modelArg(args.model);
    const read = await modelsClient(call.f).requests.result(ref, args.request_id);
    if (!read.ready) {
      const state = read.value;
      return { summary: `request ${state.request_id} is ${state.status}${state.queue_position === undefined ? '' : `, queue position ${state.queue_position}`}: not ready yet`, structured: { ready: false, request: state } };
    }
    const out = await outputOf(call, ref.id, read.answer.body, read.answer.headers, { output_path: args.output_path }, undefined);
    return { ...out, structured: { ready: true, request_id: args.request_id, ...out.structured } };
  },
});

export const MODEL_TOOLS = [list, show, schema, run, result];
