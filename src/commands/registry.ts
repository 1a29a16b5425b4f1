// The command tree. Each group's index.ts only declares its commands; the modules that do the
// work load when a command runs.
import type { Command } from 'commander';
import type { ActionFactory } from './types.js';
import { registerAuth } from './auth/index.js';
import { registerConfig } from './config/index.js';
import { registerProfiles } from './profiles/index.js';
import { registerHelp } from './help/index.js';
import { registerVersion } from './version/index.js';
import { registerDevServer } from './dev-server/index.js';
import { registerDoctor } from './doctor/index.js';
import { registerApi } from './api/index.js';
import { registerCompletion } from './completion/index.js';
import { registerJobs } from './jobs/index.js';
import { registerAssets } from './assets/index.js';
import { registerModels } from './models/index.js';
import { registerLegacy } from './legacy/index.js';
import { registerWorkflows } from './workflows/index.js';

type Register = (program: Command, action: ActionFactory) => void;

/** Every command group with the top-level command names it adds, in the order help lists them. */
export const COMMAND_GROUPS: ReadonlyArray<{ names: readonly string[]; register: Register }> = [
  { names: ['jobs'], register: registerJobs },
  { names: ['workflows'], register: registerWorkflows },
  { names: ['assets'], register: registerAssets },
  { names: ['models'], register: registerModels },
  { names: ['legacy'], register: registerLegacy },
  { names: ['auth'], register: registerAuth },
  { names: ['config'], register: registerConfig },
  { names: ['profiles'], register: registerProfiles },
  { names: ['dev-server'], register: registerDevServer },
  { names: ['doctor'], register: registerDoctor },
  { names: ['api'], register: registerApi },
  { names: ['completion', '__complete'], register: registerCompletion },
  { names: ['version'], register: registerVersion },
  { names: ['help'], register: registerHelp },
];

/** Commands that work on the whole tree (help describes it, completion scripts list it). */
const WHOLE_TREE = new Set(['help', 'completion', '__complete']);

/**
 * Adds the command groups to `program`: every group, or, when the command line names one (`only`,
 * its first word), that group alone, as a command runs only its own group's definitions and
 * building all of them cost every run ~1.5 ms. The help command is always added (it configures
 * the root). help and completion, and any other word (a typo gets suggestions from every name),
 * get the whole tree.
 */
export function registerCommands(program: Command, action: ActionFactory, only?: string): void {
  program.commandsGroup('Job API v2:');
  program.commandsGroup('Model router:');
  program.commandsGroup('Cloud API v1 (deprecated):');
  program.commandsGroup('Setup and tools:');
  const named = only === undefined || WHOLE_TREE.has(only) ? undefined : COMMAND_GROUPS.find((g) => g.names.includes(only));
  for (const group of COMMAND_GROUPS) {
    if (!named || group === named || group.register === registerHelp) group.register(program, action);
  }
}
