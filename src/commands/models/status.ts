// wes models status MODEL REQUEST_ID (or @last): a queued request's state, read once: IN_QUEUE (with
// its queue position), IN_PROGRESS or COMPLETED, and the bucket a completed request failed or was
// cancelled with. A look, so exit 0 whatever the state; `models result` collects.
import type { Factory } from '../../factory.js';
import { WesError, exitCodeForApi } from '../../errors.js';
import { printRecord } from '../../render/table.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { sendByRouterRules } from '../../clients/models/run.js';
import { historyStatus } from '../../clients/models/request-history.js';
import { modelsClient } from '../../command-kit/models/context.js';
import { recordState, requestArgs } from '../../command-kit/models/requests-context.js';
import { noOptions } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

const positional = { model: arg('<provider/model|@last>'), requestId: arg('[request-id]') };

async function run(f: Factory, args: ArgsOf<typeof positional>): Promise<number> {
  const { ref, requestId, links } = requestArgs(f, args, 'status');
  const client = modelsClient(f);
  client.requests.remember(requestId, links);
  const read = await sendByRouterRules(() => client.requests.status(ref, requestId), { retries: f.http().retries, signal: f.signal });
  const state = read.value;
  recordState(f, requestId, historyStatus(state));
  printRecord(f.io, state, () => [
    ['request', state.request_id],
    ['model', ref.id],
    ['status', state.status],
    ['queue position', state.queue_position === undefined ? undefined : String(state.queue_position)],
    ['error type', state.error_type],
  ]);
  if (f.io.json) return 0;
  if (state.status !== 'COMPLETED') f.io.info(sanitizeLine(`collect it once done: wes models result ${ref.id} ${requestId} --wait`));
  else if (state.error_type) {
    const { hintFor } = await import('../../render/error.js');
    const hint = hintFor(new WesError(state.error_type, { exitCode: exitCodeForApi(500, state.error_type), code: state.error_type, origin: 'models' }));
    f.io.info(sanitizeLine(`ended without a result (${state.error_type})${hint ? `: ${hint}` : ''}`));
  } else f.io.info(sanitizeLine(`collect it: wes models result ${ref.id} ${requestId}`));
  return 0;
}

export default defineVerb({
  path: ['models', 'status'],
  args: positional,
  options: noOptions(),
  help: { summary: 'Show the state of a queued request: IN_QUEUE (with its position), IN_PROGRESS or COMPLETED', after: ['\nExamples:\n  $ wes models status dev/slow 6f1a1a6e-6a53-4a5f-9d3a-2b3b0a1f9c21\n  $ wes models status @last --json'] },
  run,
});
