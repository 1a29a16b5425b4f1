// wes workflows convert FILE|- [--object-info FILE] [--refresh] [-o OUT]: the editor's "Export (API)"
// from the command line. An API-format file is printed unchanged in content (already converted).
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { existingPolicy, writeUnderPolicy } from '../../files/existing.js';
import { sameFile } from '../../files/same-file.js';
import { escapeUnsafeJsonText } from '../../util/safe-json.js';
import { stringifyJsonExact } from '../../util/exact-json.js';
import { isUiFormat, parseWorkflow, parseWorkflowJson, readWorkflowText } from '../../workflows/workflow-file.js';
import { convertForCommand } from './conversion.js';
import type { WorkflowsConvertOptions } from './options.js';

export async function run(f: Factory, args: string[], opts: WorkflowsConvertOptions): Promise<number> {
  const existing = existingPolicy(opts);
  if (opts.output !== undefined && args[0] !== '-' && sameFile(opts.output, args[0]!)) {
    throw new UsageError(`-o ${opts.output} is the workflow being converted: the API format would replace the editor's file`, 'write it to another file');
  }
  const { text, source } = await readWorkflowText(args[0]!, f.io.stdin);
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
    const outcome = await writeUnderPolicy(opts.output, json, existing);
    if (outcome === 'written') f.io.info(`wrote ${opts.output}`);
    else if (outcome === 'same') f.io.info(`${opts.output} already holds the same bytes: kept as it is`);
    else f.io.info(`kept the existing ${opts.output} as it is (--skip-existing)`);
  } else {
    f.io.stdout.write(escapeUnsafeJsonText(json));
  }
  return 0;
}
