import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { noOptions, typedCommand } from '../typed-options.js';
import { profilesUseOptions } from './options.js';

export function registerProfiles(program: Command, action: ActionFactory): void {
  const profiles = program.command('profiles').description('List profiles and choose the one in use').helpGroup('Setup and tools:');
  const list = profiles.command('list').description('List stored profiles; * marks the one in use');
  typedCommand(list, noOptions(), action, () => import('./list.js'))
    .addHelpText('after', '\nExamples:\n  $ wes profiles list\n  $ wes profiles list --json | jq -r ".[].name"');
  const use = profiles.command('use <name>').description('Make a profile the default for later commands');
  typedCommand(use, profilesUseOptions(), action, () => import('./use.js'))
    .addHelpText('after', '\nExamples:\n  $ wes profiles use prod\n  $ wes profiles use staging --create');
}
