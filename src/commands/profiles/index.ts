import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';

export function registerProfiles(program: Command, action: ActionFactory): void {
  const profiles = program.command('profiles').description('List profiles and choose the one in use').helpGroup('Setup and tools:');
  profiles
    .command('list')
    .description('List stored profiles; * marks the one in use')
    .addHelpText('after', '\nExamples:\n  $ wes profiles list\n  $ wes profiles list --json | jq -r ".[].name"')
    .action(action(() => import('./list.js')));
  profiles
    .command('use <name>')
    .description('Make a profile the default for later commands')
    .option('--create', 'create the profile when it does not exist')
    .addHelpText('after', '\nExamples:\n  $ wes profiles use prod\n  $ wes profiles use staging --create')
    .action(action(() => import('./use.js')));
}
