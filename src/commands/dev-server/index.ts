import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { typedCommand } from '../typed-options.js';
import { devServerOptions, devServerRules } from './options.js';

export function registerDevServer(program: Command, action: ActionFactory): void {
  const devServer = program.command('dev-server').description('Run a local implementation of all three API families (jobs, models, legacy) for trying wes and for tests');
  typedCommand(devServer, devServerOptions(), action, () => import('./run.js'), devServerRules)
    .helpGroup('Setup and tools:')
    .addHelpText(
      'after',
      `
The cloud deployment needs an API key: --api-key, WES_DEV_API_KEY, or the printed default.

Examples:
  $ wes dev-server
  $ wes dev-server --port 0 --surface serverless --deployment demo
  $ wes dev-server --surface self-hosted --engine-only --step-ms 5`,
    );
}
