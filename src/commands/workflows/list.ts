// wes workflows list --remote: the workflows saved on the server from the editor (user data,
// folder `workflows/`), newest first, with size and modification time; --json as an array.
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { printTable } from '../../render/table.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { formatBytes } from '../../util/byte-count.js';
import { listedName } from '../../workflows/saved-name.js';
import { savedWorkflows } from '../../command-kit/workflows/saved-client.js';
import { flag, type OptionsDeclaration } from '../typed-options.js';
import { defineVerb } from '../verb.js';

interface WorkflowsListOptions {
  remote?: boolean;
}

const options = (): OptionsDeclaration<WorkflowsListOptions> => ({
  remote: flag('--remote', 'list the workflows saved on the server (the editor\'s workflows folder)'),
});

async function run(f: Factory, _args: unknown, opts: WorkflowsListOptions): Promise<number> {
  if (!opts.remote) throw new UsageError('wes keeps no workflows of its own: add --remote to list those saved on the server', 'wes workflows list --remote');
  const entries = (await savedWorkflows(f).list()).sort((a, b) => (b.modifiedMs ?? -Infinity) - (a.modifiedMs ?? -Infinity));
  if (f.io.json) {
    f.io.printJson(entries.map((e) => ({ name: e.name, size: e.size, modified: e.modifiedMs === null ? null : new Date(e.modifiedMs).toISOString() })));
    return 0;
  }
  const rows = entries.map((e) => [
    sanitizeLine(e.name),
    e.size === null ? '' : formatBytes(e.size),
    e.modifiedMs === null ? '' : new Date(e.modifiedMs).toISOString().replace(/\.\d+Z$/, 'Z'),
  ]);
  printTable(f.io, ['name', 'size', 'modified'], rows, { keep: [0] });
  const unusable = entries.filter((e) => listedName(e.name) === undefined).length;
  if (unusable > 0) f.io.warn(`note: ${unusable} of them have names wes does not ask for (not .json, or a part it refuses); open them in the editor`);
  f.io.info(entries.length === 0 ? 'no workflows saved on the server' : `${entries.length} saved workflow(s)`);
  return 0;
}

export default defineVerb({
  path: ['workflows', 'list'],
  args: {},
  options: options(),
  help: {
    summary: 'List the workflows saved on the server from the editor (--remote), newest first',
    after: ['\nExamples:\n  $ wes workflows list --remote\n  $ wes workflows list --remote --json | jq -r \'.[].name\''],
  },
  run,
});
