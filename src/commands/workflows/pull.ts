// wes workflows pull NAME [-o FILE|-]: a workflow saved on the server, byte for byte as saved,
// into FILE (default: its own name in the current folder, never a path out of it) or stdout.
import type { Factory } from '../../factory.js';
import { existingPolicy, writeUnderPolicy } from '../../files/existing.js';
import { checkFileTarget } from '../../files/targets.js';
import { UsageError } from '../../errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { localFileName, savedName } from '../../workflows/saved-name.js';
import { readSaved } from '../../features/workflows/saved.js';
import { savedWorkflows } from '../../command-kit/workflows/saved-client.js';
import { readTemplate, templateRef } from '../../command-kit/workflows/template-pull.js';
import { existingFileOptions, noFileFlagsWithStdout, type ExistingFileOptions } from '../option-values.js';
import { nonEmpty, valueOption, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

interface WorkflowsPullOptions extends ExistingFileOptions {
  output?: string;
  template?: string;
}

const options = (): OptionsDeclaration<WorkflowsPullOptions> => ({
  output: valueOption('-o, --output <file>', 'write it to FILE (- for standard output); default: its name in the current folder', nonEmpty),
  template: valueOption('--template <pack/name>', 'pull one of the workflow templates the server offers instead (see `wes workflows templates`)', nonEmpty),
  ...existingFileOptions(),
});

const rules = (): Array<OptionsRule<WorkflowsPullOptions>> => [noFileFlagsWithStdout()];

const positional = { name: arg('[name]') };

/** Writes `bytes` where -o says (default `fallback`), under the --clobber / --skip-existing policy. */
export async function writePulled(f: Factory, bytes: Buffer, what: string, fallback: string, opts: WorkflowsPullOptions): Promise<void> {
  if (opts.output === '-') {
    f.io.stdout.write(bytes);
    return;
  }
  const target = opts.output ?? fallback;
  await checkFileTarget(target, '-o');
  const outcome = await writeUnderPolicy(target, bytes, existingPolicy(opts), f.hashing());
  if (outcome === 'written') f.io.info(sanitizeLine(`✓ saved ${what} to ${target} (${bytes.length} bytes)`));
  else if (outcome === 'same') f.io.info(`${target} already holds the same bytes: kept as it is`);
  else f.io.info(`kept the existing ${target} as it is (--skip-existing)`);
  if (!f.io.json) f.io.println(target);
}

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: WorkflowsPullOptions): Promise<number> {
  if (opts.template !== undefined) {
    if (args.name !== undefined) throw new UsageError('give either a saved workflow\'s NAME or --template PACK/NAME, not both');
    const ref = templateRef(opts.template);
    const { bytes, file } = await readTemplate(f, ref);
    await writePulled(f, bytes, `template ${ref.pack}/${ref.name}`, file, opts);
    return 0;
  }
  if (args.name === undefined) throw new UsageError('name the saved workflow to pull', 'see the names with: wes workflows list --remote');
  const saved = savedName(args.name);
  const bytes = await readSaved(savedWorkflows(f), saved);
  await writePulled(f, bytes, `workflow ${JSON.stringify(saved.name)}`, localFileName(saved), opts);
  return 0;
}

export default defineVerb({
  path: ['workflows', 'pull'],
  args: positional,
  options: options(),
  rules: rules(),
  help: {
    summary: 'Fetch a workflow saved on the server, byte for byte, into a file (default: its own name here)',
    after: [
      `
NAME is as \`wes workflows list --remote\` shows it (".json" may be left out; "folder/name" for one
in a subfolder). The file written is the name's last part in the current folder unless -o says
otherwise; an existing file with other bytes stops the command (exit 1) unless --clobber or
--skip-existing says what to do.

Examples:
  $ wes workflows pull "my flow"
  $ wes workflows pull portraits/v2.json -o - | jq .nodes
  $ wes workflows pull --template default -o default.json`,
    ],
  },
  run,
});
