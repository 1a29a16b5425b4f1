// Polls a prompt's state to a terminal value, each status that is not terminal yet told to the
// reporter (the command renders the ending: the success line, or the error it reports).
import { waitForTerminalStatus } from '../../clients/legacy/poll.js';
import { InterruptedError } from '../../errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { PromptState, StatusReader } from '../../clients/legacy/prompt-state.js';
import { isV1Terminal } from '../../protocol/legacy.js';
import type { FeatureContext } from '../context.js';
import { following, type Follow } from '../follow.js';
import type { PromptProgress } from './prompt-progress.js';

/** A prompt polled from `promptId` to its terminal state. */
export function promptPoll(f: Pick<FeatureContext, 'signal'>, reader: StatusReader, promptId: string, everyMs: number): Follow<PromptProgress, PromptState> {
  return (reporter) =>
    following(
      reporter,
      () =>
        waitForTerminalStatus(reader, promptId, {
          intervalMs: everyMs,
          signal: f.signal,
          onStatus: (status) => {
            if (!isV1Terminal(status)) void reporter.progress({ kind: 'polled', promptId, status });
          },
        }),
      (err) => {
        // A stop while polling leaves the prompt on the engine's queue: say so and how to wait on.
        if (err instanceof InterruptedError && !err.goesOn) err.tell(sanitizeLine(`prompt ${promptId} keeps running on the service`), `wes legacy status ${promptId} --wait`);
        return err;
      },
    );
}
