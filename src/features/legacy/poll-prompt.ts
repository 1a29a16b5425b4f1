// Polls a prompt's state to a terminal value, each status that is not terminal yet told to the
// reporter (the command renders the ending: the success line, or the error it reports).
import { waitForTerminalStatus } from '../../clients/legacy/poll.js';
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
    throw err;
  }
}
