// wes workflows validate FILE|- [--object-info FILE] [--refresh]: the server's checks, done locally
// (nothing is submitted). A UI-format file is converted first; every problem is listed as the
// server lists node errors. Exit 0 when valid, 6 (what the server's refusal would give) when not,
// 2 when the file cannot even be converted.
import type { Factory } from '../../factory.js';
import { ExitCode, WesError } from '../../errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { validateApiWorkflow } from '../../workflows/validate.js';
import { convertUiWorkflow } from '../../workflows/convert.js';
import { isUiFormat, parseWorkflow, parseWorkflowJson, readWorkflowText } from '../../workflows/workflow-file.js';
import { asNodeErrors, conversionError, warnNotes } from '../../command-kit/workflows/conversion.js';
import { loadObjectInfo } from '../../command-kit/workflows/object-info.js';
import type { ObjectInfoOptions } from '../../command-kit/workflows/object-info.js';
import { objectInfoDeclaration } from './convert-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

const positional = { workflow: arg('<workflow>') };

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: ObjectInfoOptions): Promise<number> {
  const { text, source } = await readWorkflowText(args.workflow, f.io.stdin);
  const value = parseWorkflowJson(text, source);
  const ui = isUiFormat(value);
  const workflow = ui ? undefined : parseWorkflow(text, source);
  const loaded = await loadObjectInfo(f, opts);
  let api = workflow;
  if (!api) {
    const converted = convertUiWorkflow(value as Record<string, unknown>, loaded.info);
    if (converted.problems.length) throw conversionError(source, converted.problems, loaded);
    warnNotes(f, converted.notes);
    api = converted.workflow;
  }
  const problems = validateApiWorkflow(api, loaded.info);
  const nodeErrors = asNodeErrors(problems.filter((p) => p.node !== ''));
  const whole = problems.filter((p) => p.node === '');
  if (f.io.json) f.io.printJson({ valid: problems.length === 0, format: ui ? 'ui' : 'api', errors: whole.map(({ type, message, details }) => ({ type, message, details })), node_errors: nodeErrors });
  if (problems.length === 0) {
    f.io.info(sanitizeLine(`${source} is valid against the node definitions of ${loaded.origin} (${Object.keys(api).length} node(s)${ui ? ', converted from the UI format' : ''})`));
    return 0;
  }
  const error = new WesError(`${source} would be refused: ${problems.length} problem(s) (checked locally; nothing was sent)`, {
    exitCode: ExitCode.REFUSED,
    code: whole[0]?.type ?? 'prompt_outputs_failed_validation',
    hint: whole.length ? whole.map((p) => p.message).join('; ') : 'fix the inputs above, then submit',
    details: { node_errors: nodeErrors },
  });
  throw error;
}

export default defineVerb({
  path: ['workflows', 'validate'],
  args: positional,
  options: objectInfoDeclaration(),
  help: {
    summary: 'Check a workflow (either format) against the node definitions as the server would, without submitting',
    after: [
      `
Checks link types, required inputs, number ranges and combo choices of every node that feeds an
output node, and lists every problem with the server's error types. Exit 0 when valid, 6 when the
server would refuse it, 2 when a UI-format file cannot be converted.

Examples:
  $ wes workflows validate api.json
  $ wes workflows validate ui.json --object-info object_info.json --json | jq .node_errors`,
    ],
  },
  run,
});
