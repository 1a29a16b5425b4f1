import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { typedCommand } from '../typed-options.js';
import { profilesUseOptions } from './options.js';

export function registerProfiles(program: Command, action: ActionFactory): void {
  const profiles = program.command('profiles').description('List profiles and choose the one in use').helpGroup('Setup and tools:');
  profiles
    .command('list')
    .description('List stored profiles; * marks the one in use')
    .addHelpText('after', '\nExamples:\n  $ wes profiles list\n  $ wes profiles list --json | jq -r ".[].name"')
    .action(action(() => import('./list.js')));
  const use = profiles.command('use <name>').description('Make a profile the default for later commands');
  typedCommand(use, profilesUseOptions(), action, () => import('./use.js'))
    .addHelpText('after', '\nExamples:\n  $ wes profiles use prod\n  $ wes profiles use staging --create');
}
