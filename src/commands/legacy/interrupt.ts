// wes legacy interrupt [ID]: stops the prompt running now, or the named one and no other (see
// stop-running.ts). Nothing is sent when nothing runs, so a prompt that starts meanwhile is safe.
import type { Factory } from '../../factory.js';
import { readQueue } from '../../clients/legacy/queue-state.js';
import { legacyClient } from '../../command-kit/legacy/shared.js';
import { interruptOnly } from '../../features/legacy/stop-running.js';
import { noOptions } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

const positional = { promptId: arg('[prompt_id]') };

async function run(f: Factory, args: ArgsOf<typeof positional>): Promise<number> {
  const session = await legacyClient(f, 'interrupt');
  const queue = await readQueue(session.client);
  const named = args.promptId;
  let interrupted: string[];
  if (named !== undefined) {
    await interruptOnly(session, [named], queue);
    interrupted = [named];
  } else {
    interrupted = [...queue.running];
    if (interrupted.length > 0) await session.client.interrupt();
  }
  if (f.io.json) f.io.printJson({ interrupted });
  else if (interrupted.length === 0) f.io.info('nothing was running; nothing interrupted');
  else f.io.info(`interrupted ${interrupted.join(', ')}${named === undefined ? ' (running when asked)' : ''}`);
  return 0;
}

export default defineVerb({
  path: ['legacy', 'interrupt'],
  args: positional,
  options: noOptions(),
  help: { summary: 'Stop the prompt running now, or the named one and no other (nothing is sent when it is not running)', after: ['\nExamples:\n  $ wes legacy interrupt "$PROMPT_ID"\n  $ wes legacy interrupt --quiet && wes legacy queue'] },
  run,
});
