// Polls a prompt's v1 status to a terminal value with a progress line per change on stderr.
import type { Factory } from '../../factory.js';
import { createProgress } from '../../render/progress.js';
import { sanitizeLine } from '../../render/sanitize.js';
import type { LegacyClient } from '../../surfaces/legacy/client.js';
import { waitForTerminalStatus } from '../../surfaces/legacy/poll.js';

export async function pollToEnd(f: Factory, client: LegacyClient, promptId: string, everyMs: number): Promise<string> {
  const progress = createProgress(f.io, `prompt ${promptId}: checking`);
  let status: string;
  try {
    status = await waitForTerminalStatus(client, promptId, {
      intervalMs: everyMs,
      signal: f.signal,
      onStatus: (s) => progress.update(`prompt ${promptId}: ${sanitizeLine(s)}`),
    });
  } catch (err) {
    progress.stop();
    throw err;
  }
  if (status === 'success') progress.succeed(`prompt ${promptId}: success`);
  else progress.fail(`prompt ${promptId}: ${sanitizeLine(status)}`);
  return status;
}
