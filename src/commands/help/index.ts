import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { noOptions, typedCommand } from '../typed-options.js';
import { HELP_TOPICS } from './topic-names.js';


export function registerHelp(program: Command, action: ActionFactory): void {
  program.helpCommand(false);
  const help = program.command('help [topic...]').description(`Help for a command, or a topic: ${HELP_TOPICS.join(', ')}`);
  typedCommand(help, noOptions(), action, () => import('./run.js'))
    .helpGroup('Setup and tools:')
    .addHelpText('after', '\nExamples:\n  $ wes help exit-codes\n  $ wes help jobs submit\n  $ wes help formatting');
}
