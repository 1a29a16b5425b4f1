import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';

export function registerVersion(program: Command, action: ActionFactory): void {
  program
    .command('version')
    .description('Print the version of wes, Node.js and the platform (--json for scripts and bug reports)')
    .helpGroup('Setup and tools:')
    .addHelpText('after', '\nExamples:\n  $ wes version\n  $ wes version --json')
    .action(action(() => import('./run.js')));
}
