import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { noOptions, typedCommand } from '../typed-options.js';

export function registerVersion(program: Command, action: ActionFactory): void {
  const version = program.command('version').description('Print the version of wes, Node.js and the platform (--json for scripts and bug reports)');
  typedCommand(version, noOptions(), action, () => import('./run.js'))
    .helpGroup('Setup and tools:')
    .addHelpText('after', '\nExamples:\n  $ wes version\n  $ wes version --json');
}
