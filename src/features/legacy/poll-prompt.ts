// Polls a prompt's state to a terminal value, each status that is not terminal yet told to the
// reporter (the command renders the ending: the success line, or the error it reports).
import { waitForTerminalStatus } from '../../clients/legacy/poll.js';
import { InterruptedError } from '../../errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { PromptState, StatusReader } from '../../clients/legacy/prompt-state.js';
import { isV1Terminal } from '../../protocol/legacy.js';
import type { FeatureContext } from '../context.js';
import type { FollowReporter } from '../reporter.js';
import type { PromptProgress } from './prompt-progress.js';

export async function pollToEnd(f: Pick<FeatureContext, 'signal'>, reader: StatusReader, promptId: string, everyMs: number, reporter: FollowReporter<PromptProgress>): Promise<PromptState> {
  try {
    return await waitForTerminalStatus(reader, promptId, {
      intervalMs: everyMs,
      signal: f.signal,
      onStatus: (status) => {
        if (!isV1Terminal(status)) reporter.progress({ kind: 'polled', promptId, status });
      },
    });
  } catch (err) {
    reporter.stop();
    // A stop while polling leaves the prompt on the engine's queue: say so and how to wait on.
    if (err instanceof InterruptedError && !err.goesOn) err.tell(sanitizeLine(`prompt ${promptId} keeps running on the service`), `wes legacy status ${promptId} --wait`);
    throw err;
  }
}
