import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { PROFILE_KEYS } from '../../config/keys.js';
import { noOptions, typedCommand } from '../typed-options.js';
import { configGetOptions } from './options.js';

export function registerConfig(program: Command, action: ActionFactory): void {
  const config = program
    .command('config')
    .description('Read and change settings of a profile (`wes config list` shows every key)')
    .helpGroup('Setup and tools:')
    // The keys grow with the settings: listed below the commands, not squeezed into one line.
    .addHelpText('after', `\nKeys: ${PROFILE_KEYS.join(', ')}`);
  const list = config.command('list').description('Show every setting with its value and where it comes from (secrets masked)');
  typedCommand(list, noOptions(), action, () => import('./list.js'))
    .addHelpText('after', '\nExamples:\n  $ wes config list\n  $ wes --profile prod config list --json');
  const get = config.command('get <key>').description('Print the value a setting resolves to');
  typedCommand(get, configGetOptions(), action, () => import('./get.js'))
    .addHelpText('after', '\nExamples:\n  $ wes config get base_url\n  $ wes config get api_key --reveal');
  const set = config.command('set <key> <value>').description('Store a setting in the selected profile');
  typedCommand(set, noOptions(), action, () => import('./set.js'))
    .addHelpText('after', '\nExamples:\n  $ wes config set base_url https://api.example.com\n  $ wes --profile edge config set deployment my-deploy');
  const unset = config.command('unset <key>').description('Remove a setting from the selected profile');
  typedCommand(unset, noOptions(), action, () => import('./unset.js'))
    .addHelpText('after', '\nExamples:\n  $ wes config unset router_url');
}
