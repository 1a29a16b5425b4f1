// Polls GET /api/job/{id}/status until a terminal value. Every other value, including names this
// client has never seen, means "in flight".
import { sleep } from '../../http/retry.js';
import type { LegacyClient } from './client.js';
import { isV1Terminal } from '../../protocol/legacy.js';

export interface PollOptions {
  intervalMs: number;
  signal?: AbortSignal;
  onStatus?: (status: string) => void;
}

export async function waitForTerminalStatus(client: LegacyClient, promptId: string, options: PollOptions): Promise<string> {
  for (;;) {
    const { status } = await client.status(promptId);
    options.onStatus?.(status);
    if (isV1Terminal(status)) return status;
    await sleep(options.intervalMs, options.signal);
  }
}
