// wes workflows rm NAME: deletes a workflow saved on the server.
import type { Factory } from '../../factory.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { savedName } from '../../workflows/saved-name.js';
import { findSaved, notSaved } from '../../features/workflows/saved.js';
import { savedWorkflows } from '../../command-kit/workflows/saved-client.js';
import { noOptions } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

const positional = { name: arg('<name>') };

async function run(f: Factory, args: ArgsOf<typeof positional>): Promise<number> {
  const saved = savedName(args.name);
  const client = savedWorkflows(f);
  await findSaved(client, saved);
  if (!(await client.remove(saved.path))) throw notSaved(saved, []);
  f.io.info(sanitizeLine(`✓ removed the saved workflow ${JSON.stringify(saved.name)}`));
  return 0;
}

export default defineVerb({
  path: ['workflows', 'rm'],
  args: positional,
  options: noOptions(),
  help: { summary: 'Delete a workflow saved on the server', after: ['\nExamples:\n  $ wes workflows rm "old flow"'] },
  run,
});
