// The command groups in the order `wes --help` lists them: each folder's group.ts. Read only by
// scripts/command-manifest.mjs, which writes src/commands/manifest.ts from them and their verbs.
import type { GroupSpec } from './group.js';
import jobs from './jobs/group.js';
import workflows from './workflows/group.js';
import assets from './assets/group.js';
import models from './models/group.js';
import legacy from './legacy/group.js';
import library from './library/group.js';
import auth from './auth/group.js';
import config from './config/group.js';
import profiles from './profiles/group.js';
import devServer from './dev-server/group.js';
import doctor from './doctor/group.js';
import api from './api/group.js';
import mcp from './mcp/group.js';
import completion from './completion/group.js';
import version from './version/group.js';
import help from './help/group.js';

/** [folder, group], in help's order. */
export const GROUPS: ReadonlyArray<readonly [string, GroupSpec]> = [
  ['jobs', jobs],
  ['workflows', workflows],
  ['assets', assets],
  ['models', models],
  ['legacy', legacy],
  ['library', library],
  ['auth', auth],
  ['config', config],
  ['profiles', profiles],
  ['dev-server', devServer],
  ['doctor', doctor],
  ['api', api],
  ['mcp', mcp],
  ['completion', completion],
  ['version', version],
  ['help', help],
];
