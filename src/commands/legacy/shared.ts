// What every `wes legacy` command does first: say once that v1 is deprecated and which v2 command
// replaces it (stderr, hidden by --quiet), and build the typed v1 client.
import type { Factory } from '../../factory.js';
import { LegacyClient } from '../../clients/legacy/client.js';

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

export function legacyClient(f: Factory, command: keyof typeof V2_REPLACEMENT): LegacyClient {
  f.io.info(`note: \`wes legacy ${command}\` uses the deprecated cloud API v1; v2 equivalent: ${V2_REPLACEMENT[command]}`);
  return new LegacyClient(f.http());
}

