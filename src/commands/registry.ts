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

export function registerCommands(program: Command, action: ActionFactory): void {
  program.commandsGroup('Job API v2:');
  program.commandsGroup('Model router:');
  program.commandsGroup('Cloud API v1 (deprecated):');
  program.commandsGroup('Setup and tools:');
  registerJobs(program, action);
  registerWorkflows(program, action);
  registerAssets(program, action);
  registerModels(program, action);
  registerLegacy(program, action);
  registerAuth(program, action);
  registerConfig(program, action);
  registerProfiles(program, action);
  registerDevServer(program, action);
  registerDoctor(program, action);
  registerApi(program, action);
  registerCompletion(program, action);
  registerVersion(program, action);
  registerHelp(program, action);
}
