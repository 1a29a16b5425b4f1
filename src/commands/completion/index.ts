import { Argument, type Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { noOptions, typedCommand } from '../typed-options.js';
import { DYNAMIC_KINDS, SHELLS } from '../../completion/kinds.js';

export function registerCompletion(program: Command, action: ActionFactory): void {
  const completion = program.command('completion').description('Print the shell completion script for bash, zsh or fish');
  typedCommand(completion, noOptions(), action, () => import('./run.js'))
    .helpGroup('Setup and tools:')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    .addHelpText(
      'after',
      `
The same scripts ship in the package's completions/ folder.

Examples:
  $ wes completion bash > ~/.local/share/bash-completion/completions/wes
  $ wes completion zsh > "\${fpath[1]}/_wes"
  $ wes completion fish > ~/.config/fish/completions/wes.fish`,
    );
  // Asked by the completion scripts for values that live in the configuration.
  const complete = program.command('__complete', { hidden: true }).description('Print completion values of one kind, one a line');
  typedCommand(complete, noOptions(), action, () => import('./values.js'))
    .addArgument(new Argument('<kind>').choices(DYNAMIC_KINDS))
    .addArgument(new Argument('[context]', 'for set: the workflow file named on the command line'));
}
