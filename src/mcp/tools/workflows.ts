// Workflows checked and converted locally, as `wes workflows validate` and `convert` do: the
// server's checks against its node definitions (cached per base URL), nothing submitted.
import { validateApiWorkflow } from '../../workflows/validate.js';
import { convertUiWorkflow } from '../../workflows/convert.js';
import { isUiFormat, parseWorkflow, parseWorkflowJson } from '../../workflows/workflow-file.js';
import { asNodeErrors, conversionError } from '../../command-kit/workflows/conversion.js';
import { loadObjectInfo } from '../../command-kit/workflows/object-info.js';
import { defineTool, type ToolCall } from '../tool.js';
import { workflowText, WORKFLOW_SCHEMA, type WorkflowArg } from '../workflow-arg.js';

interface WorkflowArgs {
  workflow: WorkflowArg;
  object_info?: string;
  refresh?: boolean;
}

const DEFINITIONS = {
  object_info: { type: 'string', minLength: 1, description: "A saved object_info JSON file to take the node definitions from (offline) instead of the server's /api/object_info." },
  refresh: { type: 'boolean', description: 'Fetch the server\'s node definitions again instead of the cached copy (default false).' },
} as const;

/** The workflow in API format (a UI-format one converted, its notes logged), and which format it came in. */
async function apiWorkflow(call: ToolCall, args: WorkflowArgs) {
  const { text, source } = await workflowText(args.workflow);
  const value = parseWorkflowJson(text, source);
  const loaded = await loadObjectInfo(call.f, { objectInfo: args.object_info, refresh: args.refresh });
  if (!isUiFormat(value)) return { api: parseWorkflow(text, source), format: 'api' as const, loaded, source, notes: [] as string[] };
  const converted = convertUiWorkflow(value as Record<string, unknown>, loaded.info);
  if (converted.problems.length) throw conversionError(source, converted.problems, loaded);
  return { api: converted.workflow as Record<string, unknown>, format: 'ui' as const, loaded, source, notes: converted.notes };
}

const validate = defineTool<WorkflowArgs>({
  name: 'validate_workflow',
  description:
    "Check a workflow (API or the editor's UI format) against the server's node definitions as the server would — link types, required inputs, number ranges, choices — without submitting it. Returns valid and every problem by node (node_errors); an invalid workflow is a result, not a tool error.",
  inputSchema: { type: 'object', properties: { workflow: WORKFLOW_SCHEMA, ...DEFINITIONS }, required: ['workflow'], additionalProperties: false },
  annotations: { title: 'Validate a workflow', readOnlyHint: true, openWorldHint: true },
  async run(call, args) {
    const { api, format, loaded, source, notes } = await apiWorkflow(call, args);
    const problems = validateApiWorkflow(api, loaded.info);
    const node_errors = asNodeErrors(problems.filter((p) => p.node !== ''));
    const errors = problems.filter((p) => p.node === '').map(({ type, message, details }) => ({ type, message, details }));
    const summary = problems.length === 0 ? `${source} is valid against the node definitions of ${loaded.origin} (${Object.keys(api).length} node(s))` : `${source} would be refused: ${problems.length} problem(s)`;
    return { summary, structured: { valid: problems.length === 0, format, errors, node_errors, ...(notes.length ? { notes } : {}) } };
  },
});

const convert = defineTool<WorkflowArgs>({
  name: 'convert_workflow',
  description:
    "Convert a workflow saved in the editor's UI format (with \"nodes\" and \"links\") to the API format the service runs, as the editor's \"Export (API)\" does, with the server's node definitions. An API-format workflow comes back unchanged. Anything that cannot be converted exactly is an error listing every problem.",
  inputSchema: { type: 'object', properties: { workflow: WORKFLOW_SCHEMA, ...DEFINITIONS }, required: ['workflow'], additionalProperties: false },
  annotations: { title: 'Convert a workflow to the API format', readOnlyHint: true, openWorldHint: true },
  async run(call, args) {
    const { text, source } = await workflowText(args.workflow);
    // Nothing to convert: the server's definitions are not needed.
    if (!isUiFormat(parseWorkflowJson(text, source))) return { summary: `${source} is already in API format; returned as it is`, structured: { format: 'api', workflow: parseWorkflow(text, source) } };
    const { api, format, notes } = await apiWorkflow(call, args);
    return { summary: format === 'ui' ? `converted from the UI format: ${Object.keys(api).length} node(s)` : 'already in API format; returned as it is', structured: { format, workflow: api, ...(notes.length ? { notes } : {}) } };
  },
});

export const WORKFLOW_TOOLS = [validate, convert];
