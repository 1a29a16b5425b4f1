// Collecting a queued request's output, for `models result` and `models run --queue --wait`: one
// read, or (--wait) the result route polled at the router's pace with a progress line (queue
// position, then status) until the output is there. Each state seen is recorded in the request
// history. An interruption or --timeout leaves the request running at the router and names the
// command that collects it (an interruption in the one form every command uses: InterruptedError.tell).
import type { Factory } from '../../factory.js';
import { ApiError, ExitCode, InterruptedError, TimeoutError, WesError } from '../../errors.js';
import { shellWord } from '../../util/shell-word.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { ModelRef } from '../../protocol/model-ids.js';
import type { ModelsClient } from '../../clients/models/client.js';
import { sendByRouterRules } from '../../clients/models/run.js';
import { waitForResult } from '../../clients/models/queue-wait.js';
import { GONE, historyStatus } from '../../clients/models/request-history.js';
import { deliverOutput, type OutputFetch, type OutputTarget } from './output.js';
import { ProgressLine, stateText, waitText } from './progress.js';
import { recordState } from '../../command-kit/models/requests-context.js';

/** `wes models result MODEL ID --wait` with the output flags given: what collects this request later. */
export function resultCommand(ref: ModelRef, requestId: string, target: OutputTarget): string {
  const words = ['wes', 'models', 'result', ref.id, requestId, '--wait'];
  if (target.output !== undefined) words.push('-o', target.output);
  if (target.download !== undefined) words.push('--download', target.download);
  return words.map(shellWord).join(' ');
}

/** The bucket a failed read ended the request with, for the history. */
function endedAs(err: unknown): string | undefined {
  if (!(err instanceof ApiError) || err.origin !== 'models') return undefined;
  if (err.status === 404 || err.status === 410) return GONE;
  const terminal = (err.status !== undefined && err.status < 500) || ['cancelled', 'queue_timeout', 'provider_timeout', 'provider_error'].includes(err.code);
  return terminal ? err.code : undefined;
}

export async function collectQueued(f: Factory, client: ModelsClient, ref: ModelRef, requestId: string, target: OutputTarget, wait: boolean): Promise<number> {
  const again = resultCommand(ref, requestId, target);
  const progress = new ProgressLine(f);
  const retries = f.http().retries;
  const rules = { retries, signal: f.signal, onWait: async (w: Parameters<typeof waitText>[1]) => progress.show(await waitText(ref, w, retries, undefined)) };
  const fetch: OutputFetch = async (sink) => {
    if (wait) {
      return waitForResult(client.requests, ref, requestId, {
        ...rules,
        sink,
        onState: async (state, nextMs) => {
          recordState(f, requestId, historyStatus(state));
          await progress.show(stateText(ref, state, nextMs));
        },
      });
    }
    const read = await sendByRouterRules(() => client.requests.result(ref, requestId, sink), rules);
    if (read.ready) return read.answer;
    const state = read.value;
    recordState(f, requestId, historyStatus(state));
    const where = state.status === 'IN_QUEUE' && state.queue_position !== undefined ? `in queue, position ${state.queue_position}` : state.status;
    throw new WesError(`request ${requestId} of ${ref.id} has no result yet (${where})`, {
      exitCode: ExitCode.TIMEOUT,
      code: 'not_ready',
      status: 202,
      origin: 'models',
      requestId: read.requestId,
      details: { request: state },
      hint: `wait for it with: ${again}`,
    });
  };
  try {
    await deliverOutput(f, ref, target, (sink) => fetch(sink).finally(() => progress.stop()), { queuedRequestId: requestId }, again);
  } catch (err) {
    progress.stop();
    const ended = endedAs(err);
    if (ended) recordState(f, requestId, ended);
    if (err instanceof InterruptedError) {
      throw err.tell(sanitizeLine(`request ${requestId} of ${ref.id} keeps running at the router (cancel it with: wes models cancel ${ref.id} ${requestId})`), again, { request_id: requestId });
    }
    if (err instanceof TimeoutError) err.hint = `request ${requestId} keeps running at the router; collect it with: ${again}`;
    throw err;
  }
  recordState(f, requestId, 'COMPLETED');
  return 0;
}
