// wes jobs workflow <id> [-o FILE]: the workflow behind a job (`GET /api/v2/jobs/{id}/workflow`),
// printed or written with every number as it ran; stderr says its format: `api` (the executed
// graph, what submit takes) or `save` (the editor's saved graph). --json prints the service's
// answer {workflow, format} unchanged.
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { existingPolicy, writeUnderPolicy } from '../../files/existing.js';
import { checkFileTarget } from '../../files/targets.js';
import { escapeUnsafeJsonText } from '../../util/safe-json.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { shellWord } from '../../util/shell-word.js';
import { stringifyJsonExact } from '../../util/exact-json.js';
import { JOB_ID_HELP, readByRef } from '../../command-kit/jobs/read-job.js';
import { existingFileOptions, existingFileRules, noFileFlagsWithStdout, type ExistingFileOptions } from '../option-values.js';
import { nonEmpty, valueOption, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

interface JobsWorkflowOptions extends ExistingFileOptions {
  output?: string;
}

const jobsWorkflowOptions = (): OptionsDeclaration<JobsWorkflowOptions> => ({
  output: valueOption('-o, --output <file>', 'write the workflow to FILE (- for standard output) instead of printing it', nonEmpty),
  ...existingFileOptions(),
});

const jobsWorkflowRules = (): Array<OptionsRule<JobsWorkflowOptions>> => [...existingFileRules<JobsWorkflowOptions>('output'), noFileFlagsWithStdout()];

const positional = { id: arg('<id>') };

/** What the format means for the next step. */
export function formatLine(format: string, id: string): string {
  const rerun = `wes jobs rerun ${shellWord(id)}`;
  switch (format) {
    case 'api':
      return `format: api (the API-format graph the job ran; run it again with: ${rerun})`;
    case 'save':
      return `format: save (the editor's saved graph; ${rerun} converts it to the API format first, as --convert does)`;
    default:
      return sanitizeLine(`format: ${format} (not one this wes knows: api or save)`);
  }
}

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: JobsWorkflowOptions): Promise<number> {
  const { io } = f;
  const existing = existingPolicy(opts);
  const target = opts.output === '-' ? undefined : opts.output;
  if (target !== undefined) await checkFileTarget(target, '-o');
  const client = f.client(JobsClient);
  const { id, value: answer } = await readByRef(f, args.id, (resolved) => client.workflow(resolved));
  const json = (value: unknown, indent?: number) => stringifyJsonExact(value, indent) + '\n';
  if (target !== undefined) {
    const outcome = await writeUnderPolicy(target, json(answer.workflow, 2), existing, f.hashing());
    if (outcome === 'written') io.info(`wrote ${target}`);
    else if (outcome === 'same') io.info(`${target} already holds the same bytes: kept as it is`);
    else io.info(`kept the existing ${target} as it is (--skip-existing)`);
  } else if (io.json) {
    io.stdout.write(escapeUnsafeJsonText(json(answer, io.stdoutIsTTY ? 2 : undefined)));
  } else {
    io.stdout.write(escapeUnsafeJsonText(json(answer.workflow, 2)));
  }
  io.info(formatLine(answer.format, id));
  return 0;
}

export default defineVerb({
  path: ['jobs', 'workflow'],
  args: positional,
  options: jobsWorkflowOptions(),
  rules: jobsWorkflowRules(),
  help: {
    summary: 'Print the workflow behind a job (or write it with -o); stderr says its format: api or save',
    after: [
      `
Examples:
  $ wes jobs workflow @last -o flow.json
  $ wes jobs workflow "$ID" --json | jq -r .format`,
      `\n${JOB_ID_HELP}`,
    ],
  },
  run,
});
