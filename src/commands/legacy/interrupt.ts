// wes legacy interrupt: interrupts the prompt running now.
import type { Factory } from '../../factory.js';
import { sanitizeLine } from '../../render/sanitize.js';
import { isRecord } from '../../clients/legacy/client.js';
import { legacyClient } from './shared.js';

export async function run(f: Factory): Promise<number> {
  const client = await legacyClient(f, 'interrupt');
  const answer = await client.interrupt();
  if (f.io.json) {
    f.io.printJson(answer ?? {});
    return 0;
  }
  const interrupted = isRecord(answer) && Array.isArray(answer.interrupted) ? answer.interrupted.filter((d): d is string => typeof d === 'string') : null;
  if (interrupted === null) f.io.info('interrupt sent to the running prompt');
  else if (interrupted.length === 0) f.io.info('nothing was running; nothing interrupted');
  else f.io.info(`interrupted ${interrupted.map((d) => sanitizeLine(d)).join(', ')}`);
  return 0;
}
