// Collecting a queued request's output, for `models result` and `models run --queue --wait`: one
// read, or (wait) the result route polled at the router's pace (clients/models/queue-wait.ts),
// each state told to the reporter (queue position, then status) and recorded in the request
// history, until the output is there; the command's `deliver` takes it where it goes. An
// interruption or --timeout leaves the request running at the router and names the command that
// collects it.
import { ApiError, ExitCode, InterruptedError, TimeoutError, WesError } from '../../errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { AnswerSink } from '../../http/answer-sink.js';
import type { ModelRef } from '../../protocol/model-ids.js';
import type { ModelsClient, RunAnswer } from '../../clients/models/client.js';
import { sendByRouterRules, type RunWait } from '../../clients/models/run.js';
import { waitForResult } from '../../clients/models/queue-wait.js';
import { GONE, historyStatus } from '../../clients/models/request-history.js';
import type { FeatureContext } from '../context.js';
import { following, type Follow } from '../follow.js';
import { recordState } from './history.js';
import type { ModelProgress } from './send.js';

/** Fetches the output, into `sink` when given. */
export type OutputFetch = <B>(sink?: AnswerSink<B>) => Promise<RunAnswer<B>>;

export interface QueuedFollow {
  /** Wait until the output is there, instead of answering "not ready yet". */
  wait: boolean;
  /** The command that collects the request later (after Ctrl-C, --timeout, or "not ready"). */
  resume: string;
  /** Takes the output where it goes (stdout, a file, a folder), fetching it once. */
  deliver: (fetch: OutputFetch) => Promise<void>;
}

/** The bucket a failed read ended the request with, for the history. */
function endedAs(err: unknown): string | undefined {
  if (!(err instanceof ApiError) || err.origin !== 'models') return undefined;
  if (err.status === 404 || err.status === 410) return GONE;
  const terminal = (err.status !== undefined && err.status < 500) || ['cancelled', 'queue_timeout', 'provider_timeout', 'provider_error'].includes(err.code);
  return terminal ? err.code : undefined;
}

/** Request `requestId` of `ref` followed to its output, delivered. */
export function queuedFollow(f: FeatureContext, client: ModelsClient, ref: ModelRef, requestId: string, follow: QueuedFollow): Follow<ModelProgress, void> {
  return async (reporter) => {
    const record = (status: string) => recordState(f, requestId, status, reporter);
    const rules = { retries: f.http().retries, signal: f.signal, onWait: (wait: RunWait) => reporter.progress({ kind: 'wait', wait }) };
    const fetch: OutputFetch = async (sink) => {
      if (follow.wait) {
        return waitForResult(client.requests, ref, requestId, {
          ...rules,
          sink,
          onState: async (state, nextMs) => {
            record(historyStatus(state));
            await reporter.progress({ kind: 'state', state, nextMs });
          },
        });
      }
      const read = await sendByRouterRules(() => client.requests.result(ref, requestId, sink), rules);
      if (read.ready) return read.answer;
      const state = read.value;
      record(historyStatus(state));
      const where = state.status === 'IN_QUEUE' && state.queue_position !== undefined ? `in queue, position ${state.queue_position}` : state.status;
      throw new WesError(`request ${requestId} of ${ref.id} has no result yet (${where})`, {
        exitCode: ExitCode.TIMEOUT,
        code: 'not_ready',
        status: 202,
        origin: 'models',
        requestId: read.requestId,
        details: { request: state },
        hint: `wait for it with: ${follow.resume}`,
      });
    };
    await following(reporter, () => follow.deliver((sink) => fetch(sink).finally(() => reporter.stop())), (err) => {
      const ended = endedAs(err);
      if (ended) record(ended);
      if (err instanceof InterruptedError) {
        return err.tell(sanitizeLine(`request ${requestId} of ${ref.id} keeps running at the router (cancel it with: wes models cancel ${ref.id} ${requestId})`), follow.resume, { request_id: requestId });
      }
      if (err instanceof TimeoutError) err.hint = `request ${requestId} keeps running at the router; collect it with: ${follow.resume}`;
      return err;
    });
    record('COMPLETED');
  };
}
