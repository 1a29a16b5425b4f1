// wes completion <shell>: the script for that shell, generated from the command tree.
import type { Factory } from '../../factory.js';
import type { Shell } from '../../completion/kinds.js';
import { completionScript } from '../../completion/index.js';

export async function run(f: Factory, args: string[]): Promise<number> {
  const { buildProgram } = await import('../../program.js');
  f.io.stdout.write(completionScript(args[0] as Shell, buildProgram(() => async () => {})));
  return 0;
}
