// wes models cancel MODEL REQUEST_ID (or @last): asks the router to cancel a queued request (PUT).
// Accepted (202) is a request, not a guarantee: a run already at the provider may complete and be
// charged, and the status read says what happened. Already completed (409): nothing to cancel.
// Both are exit 0.
import type { Factory } from '../../factory.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { sendByRouterRules } from '../../clients/models/run.js';
import { modelsClient } from '../../command-kit/models/context.js';
import { recordState, requestArgs } from '../../command-kit/models/requests-context.js';
import { noOptions } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

const positional = { model: arg('<provider/model|@last>'), requestId: arg('[request-id]') };

async function run(f: Factory, args: ArgsOf<typeof positional>): Promise<number> {
  const { ref, requestId, links } = requestArgs(f, args, 'cancel');
  const client = modelsClient(f);
  client.requests.remember(requestId, links);
  const read = await sendByRouterRules(() => client.requests.cancel(ref, requestId), { retries: f.http().retries, signal: f.signal });
  const look = `wes models status ${ref.id} ${requestId}`;
  if (read.accepted) {
    recordState(f, requestId, read.value.status);
    f.io.info(sanitizeLine(`✓ asked the router to cancel request ${requestId} of ${ref.id} (${read.value.status})`));
    f.io.info(sanitizeLine(`a run already at the provider may still complete, and be charged; see how it ended with: ${look}`));
  } else {
    f.io.info(sanitizeLine(`request ${requestId} of ${ref.id} had already completed (${read.value.status}): nothing to cancel; see how it ended with: ${look}`));
  }
  if (f.io.json) f.io.printJson(read.value);
  return 0;
}

export default defineVerb({
  path: ['models', 'cancel'],
  args: positional,
  options: noOptions(),
  help: { summary: 'Ask the router to cancel a queued request (a run already at the provider may still complete)', after: ['\nExamples:\n  $ wes models cancel dev/slow 6f1a1a6e-6a53-4a5f-9d3a-2b3b0a1f9c21\n  $ wes models cancel @last'] },
  run,
});
