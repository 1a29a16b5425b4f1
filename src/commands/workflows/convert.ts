// wes workflows convert FILE|- [--object-info FILE] [--refresh] [-o OUT]: the editor's "Export (API)"
// from the command line. An API-format file is printed unchanged in content (already converted).
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { existingPolicy, writeUnderPolicy } from '../../files/existing.js';
import { checkFileTarget } from '../../files/targets.js';
import { sameFile } from '../../files/same-file.js';
import { escapeUnsafeJsonText } from '../../util/safe-json.js';
import { stringifyJsonExact } from '../../util/exact-json.js';
import { isUiFormat, parseWorkflow, parseWorkflowJson, readWorkflowText } from '../../workflows/workflow-file.js';
import { convertForCommand } from '../../command-kit/workflows/conversion.js';
import type { ObjectInfoOptions } from '../../command-kit/workflows/object-info.js';
import { objectInfoDeclaration } from './convert-options.js';
import { existingFileOptions, existingFileRules, type ExistingFileOptions } from '../option-values.js';
import { nonEmpty, valueOption, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

interface WorkflowsConvertOptions extends ObjectInfoOptions, ExistingFileOptions {
  output?: string;
}

/** --clobber and --skip-existing decide about an existing -o file (the same bytes are always kept). */
const options = (): OptionsDeclaration<WorkflowsConvertOptions> => ({
  ...objectInfoDeclaration(),
  output: valueOption('-o, --output <file>', 'write the API-format workflow to FILE instead of standard output', nonEmpty),
  ...existingFileOptions(),
});

/** --clobber and --skip-existing are about the -o file: alone they would mean nothing. */
const rules = (): Array<OptionsRule<WorkflowsConvertOptions>> => existingFileRules('output');

const positional = { workflow: arg('<workflow>') };

async function run(f: Factory, { workflow: file }: ArgsOf<typeof positional>, opts: WorkflowsConvertOptions): Promise<number> {
  const existing = existingPolicy(opts);
  if (opts.output !== undefined && file !== '-' && sameFile(opts.output, file)) {
    throw new UsageError(`-o ${opts.output} is the workflow being converted: the API format would replace the editor's file`, 'write it to another file');
  }
  if (opts.output !== undefined) await checkFileTarget(opts.output, '-o');
  const { text, source } = await readWorkflowText(file, f.io.stdin);
  const value = parseWorkflowJson(text, source);
  let workflow: Record<string, unknown>;
  if (isUiFormat(value)) {
    workflow = await convertForCommand(f, value as Record<string, unknown>, source, opts);
  } else {
    workflow = parseWorkflow(text, source);
    f.io.info(`${source} is already in API format; printed as it is`);
  }
  const json = stringifyJsonExact(workflow, 2) + '\n';
  if (opts.output !== undefined) {
    const outcome = await writeUnderPolicy(opts.output, json, existing, f.hashing());
    if (outcome === 'written') f.io.info(`wrote ${opts.output}`);
    else if (outcome === 'same') f.io.info(`${opts.output} already holds the same bytes: kept as it is`);
    else f.io.info(`kept the existing ${opts.output} as it is (--skip-existing)`);
  } else {
    f.io.stdout.write(escapeUnsafeJsonText(json));
  }
  return 0;
}

export default defineVerb({
  path: ['workflows', 'convert'],
  args: positional,
  options: options(),
  rules: rules(),
  help: {
    summary: 'Print the API-format workflow of a UI-format file (- reads standard input), as the editor\'s "Export (API)" gives it',
    after: [
      `
Node definitions come from the server's /api/object_info (cached per base URL; --refresh asks
again), or from a saved object_info JSON with --object-info (no network). Anything that cannot be
converted exactly (unknown node classes, links to missing nodes, widget counts that do not match,
group nodes, subgraphs) is listed, every problem at once, with exit 2. An existing -o file with
other bytes stops the command (exit 1) unless --clobber or --skip-existing says what to do; one
with the same bytes is kept as it is.

Examples:
  $ wes workflows convert ui.json > api.json
  $ wes workflows convert ui.json --object-info object_info.json -o api.json
  $ wes api GET /api/object_info > object_info.json   # save the definitions once, digit for digit`,
    ],
  },
  run,
});
