// wes legacy queue delete <prompt_id...>: cancels pending or running prompts.
import type { Factory } from '../../factory.js';
import { sanitizeLine } from '../../render/sanitize.js';
import { isRecord } from '../../clients/legacy/client.js';
import { legacyClient } from './shared.js';

export async function run(f: Factory, args: string[]): Promise<number> {
  const client = await legacyClient(f, 'queue delete');
  const answer = await client.deleteFromQueue(args);
  if (f.io.json) {
    f.io.printJson(answer ?? { delete: args });
    return 0;
  }
  // The answer body is not part of the interface: report what it says when it says it.
  const deleted = isRecord(answer) && Array.isArray(answer.deleted) ? answer.deleted.filter((d): d is string => typeof d === 'string') : null;
  if (deleted === null) {
    f.io.info(`asked the server to delete ${args.length} prompt(s): ${args.join(', ')}`);
    return 0;
  }
  const untouched = args.filter((id) => !deleted.includes(id));
  f.io.info(deleted.length ? `deleted ${deleted.length} prompt(s): ${deleted.map((d) => sanitizeLine(d)).join(', ')}` : 'deleted nothing');
  if (untouched.length) f.io.info(`not pending or running (left alone): ${untouched.join(', ')}`);
  return 0;
}
