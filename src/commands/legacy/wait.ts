// Polls a prompt's state to a terminal value with a progress line per change on stderr.
import type { Factory } from '../../factory.js';
import { openProgressDisplay } from '../../render/open-progress.js';
import { sanitizeLine } from '../../render/sanitize.js';
import { waitForTerminalStatus } from '../../clients/legacy/poll.js';
import type { PromptState, StatusReader } from '../../clients/legacy/prompt-state.js';

export async function pollToEnd(f: Factory, reader: StatusReader, promptId: string, everyMs: number): Promise<PromptState> {
  const progress = await openProgressDisplay(f.io, `prompt ${promptId}: checking`);
  let state: PromptState;
  try {
    state = await waitForTerminalStatus(reader, promptId, {
      intervalMs: everyMs,
      signal: f.signal,
      onStatus: (s) => progress.update(`prompt ${promptId}: ${sanitizeLine(s)}`),
    });
  } catch (err) {
    progress.stop();
    throw err;
  }
  if (state.status === 'success') progress.succeed(`prompt ${promptId}: success`);
  else progress.fail(`prompt ${promptId}: ${sanitizeLine(state.status)}`);
  return state;
}
