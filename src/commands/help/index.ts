import type { Command } from 'commander';
import type { ActionFactory } from '../../program.js';

export const HELP_TOPICS = ['exit-codes', 'environment', 'formatting'] as const;

export function registerHelp(program: Command, action: ActionFactory): void {
  program.helpCommand(false);
  program
    .command('help [topic...]')
    .description(`Help for a command, or a topic: ${HELP_TOPICS.join(', ')}`)
    .helpGroup('Setup and tools:')
    .addHelpText('after', '\nExamples:\n  $ wes help exit-codes\n  $ wes help jobs submit\n  $ wes help formatting')
    .action(action(() => import('./run.js')));
}
