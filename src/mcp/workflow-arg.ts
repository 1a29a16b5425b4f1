// A tool's `workflow` argument: the graph itself (a JSON object), or the path of a local file
// holding it, read and checked as `wes jobs submit FILE` reads it. Standard input is the
// protocol's, so `-` is refused. A UI-format graph is converted only when asked (`convert`).
import type { Factory } from '../factory.js';
import { UsageError } from '../errors.js';
import { convertForCommand } from '../command-kit/workflows/conversion.js';
import { isUiFormat, parseWorkflow, parseWorkflowJson, readLocalText } from '../workflows/workflow-file.js';

export type WorkflowArg = string | Record<string, unknown>;

export const WORKFLOW_SCHEMA = {
  description:
    'The workflow: the API-format graph itself (an object keyed by node id, each node {"class_type", "inputs"}; a link to another node\'s output is ["NODE_ID", OUTPUT_INDEX]), or the path of a local JSON file holding it.',
  oneOf: [
    { type: 'object', description: 'the graph itself' },
    { type: 'string', minLength: 1, description: 'the path of a local workflow JSON file' },
  ],
} as const;

/** The workflow's JSON text and what messages call it. */
export async function workflowText(arg: WorkflowArg): Promise<{ text: string; source: string }> {
  if (typeof arg !== 'string') return { text: JSON.stringify(arg), source: 'the workflow given' };
  if (arg === '-') throw new UsageError('workflow "-" would read standard input, which carries the MCP protocol here', 'give the graph itself, or the path of a file');
  return { text: await readLocalText(arg), source: arg };
}

/** The API-format workflow; a UI-format one converted with the server's node definitions when `convert`, else refused with how to go on. */
export async function workflowOf(f: Factory, arg: WorkflowArg, convert: boolean): Promise<Record<string, unknown>> {
  const { text, source } = await workflowText(arg);
  const value = parseWorkflowJson(text, source);
  if (convert && isUiFormat(value)) return convertForCommand(f, value as Record<string, unknown>, source, {});
  return parseWorkflow(text, source, 'call again with "convert": true to convert it with the server\'s node definitions, or convert it first with convert_workflow');
}
