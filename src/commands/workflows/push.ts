// wes workflows push FILE [--name NAME] [--overwrite]: saves a workflow file on the server where
// the editor finds it (user data, `workflows/NAME`), byte for byte. The editor's UI format is what
// it saves; an API-format file is accepted (the editor opens it too) and said. An existing saved
// workflow is never replaced without --overwrite.
import { basename } from 'node:path';
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { isUiFormat, parseWorkflow, parseWorkflowJson } from '../../workflows/workflow-file.js';
import { readLocalBytes } from '../../files/read-local.js';
import { savedName } from '../../workflows/saved-name.js';
import { alreadySaved } from '../../features/workflows/saved.js';
import { savedWorkflows } from '../../command-kit/workflows/saved-client.js';
import { flag, nonEmpty, valueOption, type OptionsDeclaration } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

interface WorkflowsPushOptions {
  name?: string;
  overwrite?: boolean;
}

const options = (): OptionsDeclaration<WorkflowsPushOptions> => ({
  name: valueOption('--name <name>', 'save it under NAME (default: the file\'s name); "folder/name" saves into a subfolder', nonEmpty),
  overwrite: flag('--overwrite', 'replace a saved workflow of that name (default: refuse, exit 6)'),
});

const positional = { file: arg('<file>') };

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: WorkflowsPushOptions): Promise<number> {
  if (args.file === '-' && opts.name === undefined) throw new UsageError('a workflow read from standard input needs --name NAME');
  const bytes = args.file === '-' ? await readStdin(f) : await readLocalBytes(args.file);
  const source = args.file === '-' ? 'standard input' : args.file;
  const value = parseWorkflowJson(bytes.toString('utf8'), source);
  if (!isUiFormat(value)) {
    parseWorkflow(bytes.toString('utf8'), source); // refuses what is neither format, with the reason
    f.io.notice(`note: ${sanitizeLine(source)} is in API format, not the editor's UI format; saved as it is (the editor opens it, without its layout)`);
  }
  const saved = savedName(opts.name ?? basename(args.file));
  const outcome = await savedWorkflows(f).write(saved.path, bytes, opts.overwrite === true);
  if (outcome === 'exists') throw alreadySaved(saved, 'add --overwrite to replace it, or save it under another --name');
  f.io.info(sanitizeLine(`✓ saved ${source} on the server as ${JSON.stringify(saved.name)} (${bytes.length} bytes)`));
  if (!f.io.json) f.io.println(saved.name);
  else f.io.printJson({ name: saved.name, size: bytes.length });
  return 0;
}

async function readStdin(f: Factory): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of f.io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

export default defineVerb({
  path: ['workflows', 'push'],
  args: positional,
  options: options(),
  help: {
    summary: 'Save a workflow file on the server where the editor finds it (refuses to replace one without --overwrite)',
    after: [
      `
Examples:
  $ wes workflows push "my flow.json"
  $ wes workflows push flow.json --name portraits/v2 --overwrite`,
    ],
  },
  run,
});
