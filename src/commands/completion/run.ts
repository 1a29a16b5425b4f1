// wes completion <shell>: the script for that shell, generated from the command tree.
import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { noOptions, type NoOptions } from '../typed-options.js';
import { UsageError } from '../../errors.js';
import { SHELLS } from '../../completion/kinds.js';
import { completionScript } from '../../completion/index.js';
import { choiceArg, defineVerb, rootCommand, type ArgsOf } from '../verb.js';

const positional = { shell: choiceArg('<shell>', 'the shell to complete in', SHELLS) };

async function run(f: Factory, { shell }: ArgsOf<typeof positional>, _opts: NoOptions, command: Command): Promise<number> {
  // With --json stdout holds one JSON document: a shell script would break the pipe that asked for one.
  if (f.io.json) throw new UsageError(`wes completion ${shell} prints a shell script and has no JSON form`, 'drop --json and --jq');
  f.io.stdout.write(completionScript(shell, rootCommand(command)));
  return 0;
}

export default defineVerb({
  path: ['completion'],
  args: positional,
  options: noOptions(),
  help: {
    summary: 'Print the shell completion script for bash, zsh or fish',
    group: 'Setup and tools:',
    after: [
      `
The same scripts ship in the package's completions/ folder.

Examples:
  $ wes completion bash > ~/.local/share/bash-completion/completions/wes
  $ wes completion zsh > "\${fpath[1]}/_wes"
  $ wes completion fish > ~/.config/fish/completions/wes.fish`,
    ],
  },
  run,
});
