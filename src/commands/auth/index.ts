import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';

export function registerAuth(program: Command, action: ActionFactory): void {
  const auth = program
    .command('auth')
    .description('Log in, check and remove credentials of a profile')
    .helpGroup('Setup and tools:');
  auth
    .command('login')
    .description('Store a base URL and credentials in the selected profile (prompts on a terminal)')
    .option('--with-token', 'read the API key from standard input (first line)')
    .option('--router-token-stdin', 'read the router credential from standard input (next line)')
    .option('--no-verify', 'do not check the credential against the server')
    .addHelpText('after', `
Examples:
  $ wes auth login
  $ echo "$WES_KEY" | wes auth login --base-url https://api.example.com --with-token
  $ printf '%s\\n%s\\n' "$KEY" "$ROUTER_JWT" | wes --profile prod auth login --with-token --router-token-stdin`)
    .action(action(() => import('./login.js')));
  auth
    .command('status')
    .description('Show the profile in use, its URLs, masked credentials, and whether the server accepts them')
    .option('--offline', 'do not contact the server')
    .addHelpText('after', `
Examples:
  $ wes auth status
  $ wes auth status --json | jq .surfaces`)
    .action(action(() => import('./status.js')));
  auth
    .command('logout')
    .description('Remove the stored API key and router credential from the selected profile')
    .addHelpText('after', `
Examples:
  $ wes auth logout
  $ wes --profile staging auth logout`)
    .action(action(() => import('./logout.js')));
}
