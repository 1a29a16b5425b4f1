// What every `wes legacy` command does first: say once that the cloud's v1 is deprecated and which
// v2 command replaces it (stderr, hidden by --quiet), and build the typed v1 client. A self-hosted
// ComfyUI engine's /api is its own current API, not the deprecated one: no note there.
import type { Factory } from '../../factory.js';
import { LegacyClient } from '../../clients/legacy/client.js';
import { knownEngineOf } from './engine.js';

/** The v2 replacement of each legacy command (also the README's migration table). */
export const V2_REPLACEMENT: Record<string, string> = {
  'object-info': 'none needed: `wes jobs submit` validates the workflow and reports every bad node',
  upload: '`wes assets upload FILE` (or `wes jobs submit --set NODE.INPUT=@FILE`)',
  prompt: '`wes jobs submit` (with --wait and --download)',
  status: '`wes jobs get ID` (or `wes jobs watch ID`)',
  watch: '`wes jobs watch ID`',
  queue: '`wes jobs get ID` (its queue_position)',
  'queue delete': '`wes jobs cancel ID`',
  interrupt: '`wes jobs cancel ID`',
  view: '`wes jobs download ID` (or `wes assets download ID`)',
};

/**
 * The note goes unless the server is known to be a self-hosted engine (the engine setting, or an
 * earlier probe still cached): an unknown server is taken as the cloud, as everywhere in wes, and
 * is not probed for a note.
 */
export async function legacyClient(f: Factory, command: keyof typeof V2_REPLACEMENT): Promise<LegacyClient> {
  if ((await knownEngineOf(f))?.kind !== 'self-hosted') {
    f.io.info(`note: \`wes legacy ${command}\` uses the deprecated cloud API v1; v2 equivalent: ${V2_REPLACEMENT[command]}`);
  }
  return new LegacyClient(f.http());
}

