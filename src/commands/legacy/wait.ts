// Polls a prompt's state to a terminal value with a progress line per change on stderr. One line
// ends it: the success line here, or the error the command reports for any other ending.
import type { Factory } from '../../factory.js';
import { openProgressDisplay } from '../../render/open-progress.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { waitForTerminalStatus } from '../../clients/legacy/poll.js';
import type { PromptState, StatusReader } from '../../clients/legacy/prompt-state.js';
import { isV1Success, isV1Terminal } from '../../protocol/legacy.js';

export async function pollToEnd(f: Factory, reader: StatusReader, promptId: string, everyMs: number): Promise<PromptState> {
  const progress = await openProgressDisplay(f.io, `prompt ${promptId}: checking`);
  let state: PromptState;
  try {
    state = await waitForTerminalStatus(reader, promptId, {
      intervalMs: everyMs,
      signal: f.signal,
      onStatus: (s) => {
        if (!isV1Terminal(s)) progress.update(`prompt ${promptId}: ${sanitizeLine(s)}`);
      },
    });
  } catch (err) {
    progress.stop();
    throw err;
  }
  if (isV1Success(state.status)) progress.succeed(`prompt ${promptId}: ${sanitizeLine(state.status)}`);
  else progress.stop();
  return state;
}
