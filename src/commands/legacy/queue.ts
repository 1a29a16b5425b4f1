// wes legacy queue: running and pending prompts as a table (--json: the queue object as sent).
import type { Factory } from '../../factory.js';
import { printTable } from '../../render/table.js';
import { queueRow } from '../../command-kit/legacy/queue-row.js';
import { legacyClient } from '../../command-kit/legacy/shared.js';
import { noOptions } from '../typed-options.js';
import { defineVerb } from '../verb.js';

async function run(f: Factory): Promise<number> {
  const { client } = await legacyClient(f, 'queue');
  const queue = await client.queue();
  if (f.io.json) {
    f.io.printJson(queue);
    return 0;
  }
  const rows = [...queue.queue_running.map((e) => queueRow('running', e)), ...queue.queue_pending.map((e) => queueRow('pending', e))];
  printTable(f.io, ['state', 'number', 'prompt id', 'nodes', 'output nodes'], rows, { keep: [2] });
  f.io.info(`${queue.queue_running.length} running, ${queue.queue_pending.length} pending`);
  return 0;
}

export default defineVerb({
  path: ['legacy', 'queue'],
  args: {},
  options: noOptions(),
  help: { summary: 'Show running and pending prompts; `queue delete` takes pending ones off', after: ['\nExamples:\n  $ wes legacy queue\n  $ wes legacy queue delete "$PROMPT_ID"'] },
  run,
});
