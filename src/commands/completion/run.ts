// wes completion <shell>: the script for that shell, generated from the command tree.
import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { rootCommand } from '../types.js';
import type { NoOptions } from '../typed-options.js';
import type { Shell } from '../../completion/kinds.js';
import { completionScript } from '../../completion/index.js';

export async function run(f: Factory, args: string[], _opts: NoOptions, command: Command): Promise<number> {
  f.io.stdout.write(completionScript(args[0] as Shell, rootCommand(command)));
  return 0;
}
