import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { noOptions, typedCommand } from '../typed-options.js';

export function registerDoctor(program: Command, action: ActionFactory): void {
  const doctor = program.command('doctor').description('Check the configuration, each API family\'s reachability and credential, and the clock');
  typedCommand(doctor, noOptions(), action, () => import('./run.js'))
    .helpGroup('Setup and tools:')
    .addHelpText(
      'after',
      `
Checks, in order: the settings resolve; the config file is private (mode 0600); each API family
(jobs, models, legacy) answers; each accepts its credential; the local clock is within 60 s of
the servers' Date header (a warning, not a failure). --json prints the array of checks.

Exit code: 0 when nothing failed; otherwise that of the most basic failure: 2 settings do not
resolve, 1 config file readable by others or an API unreachable, 4 a credential refused.

Examples:
  $ wes doctor
  $ wes --profile prod doctor --json | jq -r '.[] | select(.status != "pass") | .detail'
  $ wes doctor --base-url http://127.0.0.1:8188 --api-key wes-dev-key`,
    );
}
