// wes completion <shell>: the script for that shell, generated from the command tree.
import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { noOptions, type NoOptions } from '../typed-options.js';
import { SHELLS } from '../../completion/kinds.js';
import { completionScript } from '../../completion/index.js';
import { choiceArg, defineVerb, rootCommand, type ArgsOf } from '../verb.js';

const positional = { shell: choiceArg('<shell>', 'the shell to complete in', SHELLS) };

async function run(f: Factory, { shell }: ArgsOf<typeof positional>, _opts: NoOptions, command: Command): Promise<number> {
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
