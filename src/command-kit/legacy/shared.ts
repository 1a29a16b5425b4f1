// What every `wes legacy` command does first: find out which v1 server this is (the setting, the
// cache, else a probe, remembered for 5 minutes), say on stderr (once a day per command: note-once.ts)
// which job API v2 command replaces it where the server has one (the cloud, or a job API server in front of an engine;
// hidden by --quiet), and build the typed v1 client. A bare ComfyUI engine's /api is its own current
// API with no v2 beside it: no note there.
import type { Factory } from '../../factory.js';
import { LegacyClient } from '../../clients/legacy/client.js';
import type { EngineIdentity } from '../../clients/legacy/engine.js';
import type { LegacySession } from '../../clients/legacy/session.js';
import type { StatusReader } from '../../clients/legacy/prompt-state.js';
import { engineOf, jobApiBesideOf, statusReader } from './engine.js';
import { noteDue } from './note-once.js';

/** The v2 replacement of each legacy command (also the README's migration table). */
export const V2_REPLACEMENT: Record<string, string> = {
  'object-info': 'none needed: `wes jobs submit` validates the workflow and reports every bad node',
  upload: '`wes assets upload FILE` (or `wes jobs submit --set NODE.INPUT=@FILE`)',
  prompt: '`wes jobs submit` (with --wait and --download)',
  status: '`wes jobs get ID` (or `wes jobs watch ID`)',
  watch: '`wes jobs watch ID`',
  list: '`wes jobs list`',
  queue: '`wes jobs get ID` (its queue_position)',
  'queue delete': '`wes jobs cancel ID`',
  'queue clear': '`wes jobs cancel ID` (one job at a time)',
  interrupt: '`wes jobs cancel ID`',
  view: '`wes jobs download ID` (or `wes assets download ID`)',
};

async function identityOf(f: Factory): Promise<EngineIdentity | null> {
  try {
    return await engineOf(f);
  } catch (err) {
    f.io.debug(`could not tell which v1 server this is now (${(err as Error).message}); the first status read will`);
    return null;
  }
}

async function noteReplacement(f: Factory, command: keyof typeof V2_REPLACEMENT, identity: EngineIdentity | null): Promise<void> {
  if (identity === null || f.io.quiet) return;
  if (identity.kind === 'cloud') {
    if (!(await noteDue(f, command))) return;
    f.io.info(`note: \`wes legacy ${command}\` uses the deprecated cloud API v1; v2 equivalent: ${V2_REPLACEMENT[command]}`);
  } else if ((await jobApiBesideOf(f, identity)) && (await noteDue(f, command))) {
    f.io.info(`note: this server also serves the job API v2; its equivalent of \`wes legacy ${command}\`: ${V2_REPLACEMENT[command]}`);
  }
}

export async function legacyClient(f: Factory, command: keyof typeof V2_REPLACEMENT): Promise<LegacySession> {
  const identity = await identityOf(f);
  await noteReplacement(f, command, identity);
  const client = f.client(LegacyClient);
  let reader: StatusReader | undefined;
  return { client, identity, engine: identity?.kind === 'self-hosted', reader: () => (reader ??= statusReader(f, client, identity)) };
}
