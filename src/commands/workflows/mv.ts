// wes workflows mv OLD NEW [--overwrite]: renames a workflow saved on the server (or moves it into
// a subfolder). An engine moves it in one request; the published cloud API has no move, so there it
// is copied and the old one deleted. An existing NEW is never replaced without --overwrite.
import type { Factory } from '../../factory.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { savedName } from '../../workflows/saved-name.js';
import { alreadySaved, moveSaved } from '../../features/workflows/saved.js';
import { engineOf } from '../../command-kit/legacy/engine.js';
import { savedWorkflows } from '../../command-kit/workflows/saved-client.js';
import { flag, type OptionsDeclaration } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

interface WorkflowsMvOptions {
  overwrite?: boolean;
}

const options = (): OptionsDeclaration<WorkflowsMvOptions> => ({
  overwrite: flag('--overwrite', 'replace a saved workflow already named NEW (default: refuse, exit 6)'),
});

const positional = { from: arg('<old>'), to: arg('<new>') };

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: WorkflowsMvOptions): Promise<number> {
  const from = savedName(args.from);
  const to = savedName(args.to, 'destination');
  if (from.name === to.name) {
    f.io.info('the old and the new name are the same: nothing to move');
    return 0;
  }
  const engine = (await engineOf(f)).kind === 'self-hosted';
  const outcome = await moveSaved(savedWorkflows(f), from, to, opts.overwrite === true, engine);
  if (outcome === 'exists') throw alreadySaved(to, 'add --overwrite to replace it, or choose another name');
  f.io.info(sanitizeLine(`✓ moved ${JSON.stringify(from.name)} to ${JSON.stringify(to.name)}`));
  return 0;
}

export default defineVerb({
  path: ['workflows', 'mv'],
  args: positional,
  options: options(),
  help: { summary: 'Rename a workflow saved on the server, or move it into a subfolder', after: ['\nExamples:\n  $ wes workflows mv "my flow" "portraits/my flow"'] },
  run,
});
