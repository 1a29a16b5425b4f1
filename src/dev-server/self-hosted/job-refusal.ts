// A v2 submit refused by the engine, as the reference job API server passes ComfyUI's refusal on:
// `422 invalid_workflow` with the engine's message and its own `node_errors` (recorded in
// ../shared/observations/recordings/v2-proxy-edges.json, part "9 submit"):
//   unknown class       "Cannot execute because node X does not exist.", node_errors {}
//   no output node      "Prompt has no outputs", node_errors {}
//   failed validation   "Prompt outputs failed validation", per node {errors, dependent_outputs, class_type};
//                       a link to a missing node or output slot is the Python exception ComfyUI's
//                       validator raised (KeyError, IndexError) with its traceback: reported on the
//                       node whose link is broken, from its consumer's input (inner validation), or
//                       on the output node itself when nothing consumes it.
import type { DevState, NodeClassInfo, WorkflowRejected } from '../contract.js';
import { isObject } from '../../protocol/openapi-document.js';
import { engineNodeErrors, outputNodeIds, type Graph } from './prompt.js';

export interface EngineRefusal {
  message: string;
  nodeErrors: Record<string, unknown>;
}

const VALIDATOR = '/srv/comfyui/execution.py';

/** The frames ComfyUI's validate_inputs shows for the two exceptions a broken link raises. */
const FRAMES = {
  KeyError: [
    `  File "${VALIDATOR}", line 808, in validate_inputs\n    r = await validate_inputs(prompt_id, prompt, o_id, validated)\n`,
    `  File "${VALIDATOR}", line 788, in validate_inputs\n    o_class_type = prompt[o_id]['class_type']\n`,
  ],
  IndexError: [
    `  File "${VALIDATOR}", line 808, in validate_inputs\n    r = await validate_inputs(prompt_id, prompt, o_id, validated)\n`,
    `  File "${VALIDATOR}", line 790, in validate_inputs\n    received_type = r[val[1]]\n`,
  ],
} as const;

type Link = [string, number];
const isLink = (v: unknown): v is Link => Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'number';

/** The exception ComfyUI raises reading this node's first broken link, if it has one. */
function brokenLink(graph: Graph, info: Record<string, NodeClassInfo>, id: string): { type: keyof typeof FRAMES; message: string } | undefined {
  const inputs = graph[id]?.inputs;
  if (!isObject(inputs)) return undefined;
  for (const value of Object.values(inputs)) {
    if (!isLink(value)) continue;
    const source = Object.hasOwn(graph, value[0]) ? graph[value[0]] : undefined;
    if (!source) return { type: 'KeyError', message: `'${value[0]}'` };
    const sourceInfo = typeof source.class_type === 'string' && Object.hasOwn(info, source.class_type) ? info[source.class_type] : undefined;
    if (sourceInfo && sourceInfo.output[value[1]] === undefined) return { type: 'IndexError', message: 'tuple index out of range' };
  }
  return undefined;
}

/** The node and input that read `id`'s output, with the link. */
function consumerOf(graph: Graph, id: string): { node: string; input: string; link: Link } | undefined {
  for (const [node, entry] of Object.entries(graph)) {
    if (!isObject(entry?.inputs)) continue;
    for (const [input, value] of Object.entries(entry.inputs)) if (isLink(value) && value[0] === id) return { node, input, link: value };
  }
  return undefined;
}

function inputConfig(graph: Graph, info: Record<string, NodeClassInfo>, node: string, input: string): unknown {
  const type = graph[node]?.class_type;
  const def = typeof type === 'string' && Object.hasOwn(info, type) ? info[type] : undefined;
  return def?.input.required[input] ?? def?.input.optional?.[input] ?? null;
}

export function engineRefusal(state: DevState, graph: Graph, err: WorkflowRejected): EngineRefusal {
  const unknown = err.unknownNodeClasses[0];
  if (unknown !== undefined) return { message: `Cannot execute because node ${unknown} does not exist.`, nodeErrors: {} };
  if (!isObject(graph) || outputNodeIds(state, graph).length === 0) return { message: 'Prompt has no outputs', nodeErrors: {} };
  if (Object.keys(err.nodeErrors).length === 0) return { message: err.message, nodeErrors: {} };
  const info = state.engine.objectInfo();
  const nodeErrors = engineNodeErrors(state, graph, err);
  for (const id of Object.keys(err.nodeErrors)) {
    const broken = brokenLink(graph, info, id);
    if (!broken) continue;
    const traceback = [...FRAMES[broken.type]];
    const consumer = consumerOf(graph, id);
    const entry = nodeErrors[id] as { errors: unknown[]; dependent_outputs: string[] };
    if (consumer) {
      entry.errors = [{
        type: 'exception_during_inner_validation',
        message: 'Exception when validating inner node',
        details: broken.message,
        extra_info: {
          input_name: consumer.input,
          input_config: inputConfig(graph, info, consumer.node, consumer.input),
          exception_message: broken.message,
          exception_type: broken.type,
          traceback,
          linked_node: consumer.link,
        },
      }];
    } else {
      entry.errors = [{
        type: 'exception_during_validation',
        message: 'Exception when validating node',
        details: broken.message,
        extra_info: { exception_type: broken.type, traceback },
      }];
      entry.dependent_outputs = [id];
    }
  }
  return { message: 'Prompt outputs failed validation', nodeErrors };
}
