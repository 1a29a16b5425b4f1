import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { noOptions, typedCommand } from '../typed-options.js';
import { authLoginOptions, authLoginRules, authStatusOptions } from './options.js';

export function registerAuth(program: Command, action: ActionFactory): void {
  const auth = program
    .command('auth')
    .description('Log in, check and remove credentials of a profile')
    .helpGroup('Setup and tools:');
  const login = auth.command('login').description('Store a base URL and credentials in the selected profile (prompts on a terminal)');
  typedCommand(login, authLoginOptions(), action, () => import('./login.js'), authLoginRules)
    .addHelpText('after', `
Examples:
  $ wes auth login
  $ echo "$WES_KEY" | wes auth login --base-url https://api.example.com --with-token
  $ printf '%s\\n%s\\n' "$KEY" "$ROUTER_JWT" | wes --profile prod auth login --with-token --router-token-stdin`);
  const status = auth.command('status').description('Show the profile in use, its URLs, masked credentials, and whether the server accepts them');
  typedCommand(status, authStatusOptions(), action, () => import('./status.js'))
    .addHelpText('after', `
Examples:
  $ wes auth status
  $ wes auth status --json | jq .surfaces`);
  const logout = auth.command('logout').description('Remove the stored API key and router credential from the selected profile');
  typedCommand(logout, noOptions(), action, () => import('./logout.js'))
    .addHelpText('after', `
Examples:
  $ wes auth logout
  $ wes --profile staging auth logout`);
}
