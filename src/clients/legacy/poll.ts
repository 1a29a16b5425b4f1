// Polls a prompt's state by REST until a terminal value. Every other value, including names this
// client has never seen, means "in flight".
import { sleep } from '../../http/retry.js';
import type { PromptState, StatusReader } from './prompt-state.js';
import { isV1Terminal } from '../../protocol/legacy.js';

export interface PollOptions {
  intervalMs: number;
  signal?: AbortSignal;
  onStatus?: (status: string) => void;
}

export async function waitForTerminalStatus(reader: StatusReader, promptId: string, options: PollOptions): Promise<PromptState> {
  for (;;) {
    const state = await reader.read(promptId);
    options.onStatus?.(state.status);
    if (isV1Terminal(state.status)) return state;
    await sleep(options.intervalMs, options.signal);
  }
}
