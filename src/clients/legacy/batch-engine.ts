// A self-hosted ComfyUI engine as an endpoint of a batch. Its lines go in as v1 prompts (POST
// /prompt), each carrying its line's key in extra_data (`wes_batch_key`): an engine takes no
// Idempotency-Key, but it keeps extra_data in its queue and its history, so a line whose answer was
// lost, or whose run was killed, is looked up there by its key before it is ever sent again. One
// poller per engine follows all its prompts: the queue once per interval for all of them, then the
// history of each prompt that left the queue (the engine's answer, as `wes legacy status` reads it).
import { ApiError, ExitCode, WesError } from '../../errors.js';
import { sleep } from '../../http/retry.js';
import { isRecord } from '../shared/response-check.js';
import type { LegacyClient } from './client.js';
import { entryId, stateOfHistory, type PromptState } from './prompt-state.js';
import type { NodeFileRef } from './tracker.js';

/** The extra_data key that names the batch line a prompt was made for. */
export const BATCH_KEY = 'wes_batch_key';

/** Saves a finished prompt's output files into a folder (the command side provides it). */
export type SaveEngineOutputs = (client: LegacyClient, refs: NodeFileRef[], dir: string) => Promise<Array<{ ref: NodeFileRef; path: string; hash: string | null; verified: boolean }>>;

/** Reads of the queue in a row that did not show a just-submitted prompt, after which it is taken as lost. */
const UNSEEN_ROUNDS = 3;

interface Waiter {
  resolve: (state: PromptState) => void;
  reject: (err: unknown) => void;
  seenQueued: boolean;
  unseen: number;
}

function keyOf(extraData: unknown): string | undefined {
  return isRecord(extraData) && typeof extraData[BATCH_KEY] === 'string' ? extraData[BATCH_KEY] : undefined;
}

/** A 200 answer that still refused the prompt (`error` and `node_errors`), as the refusal it is. */
function refusal(answer: { error?: unknown; node_errors?: unknown }): ApiError {
  const error = answer.error;
  const message = typeof error === 'string' ? error : isRecord(error) && typeof error.message === 'string' ? error.message : 'the engine refused the prompt';
  return new ApiError(`the engine refused the prompt: ${message}`, { status: 400, code: 'invalid_prompt', origin: 'legacy', details: { node_errors: isRecord(answer.node_errors) ? answer.node_errors : {} } });
}

export class EngineLines {
  private readonly waiting = new Map<string, Waiter>();
  private polling = false;

  constructor(
    readonly client: LegacyClient,
    private readonly intervalMs: number,
    private readonly signal: AbortSignal,
    readonly saveOutputs?: SaveEngineOutputs,
  ) {}

  /** Submits one line's workflow; its key rides in extra_data. Returns the prompt id. */
  async submit(workflow: Record<string, unknown>, extraData: Record<string, unknown> | undefined, key: string): Promise<string> {
    const answer = await this.client.submit(workflow, { ...extraData, [BATCH_KEY]: key }, { retries: 0 });
    if (answer.error !== undefined || typeof answer.prompt_id !== 'string') throw refusal(answer);
    return answer.prompt_id;
  }

  /** The prompt a line's key made on this engine, if it still has it (queued, running, or in its history). */
  async find(key: string): Promise<string | null> {
    const queue = await this.client.queue();
    for (const entry of [...queue.queue_running, ...queue.queue_pending]) {
      if (Array.isArray(entry) && keyOf(entry[3]) === key) return entryId(entry);
    }
    for (const [id, entry] of Object.entries(await this.client.allHistory())) {
      if (isRecord(entry) && Array.isArray(entry.prompt) && keyOf(entry.prompt[3]) === key) return id;
    }
    return null;
  }

  /** Waits for a prompt to end: its state from the engine's history (success, error, or cancelled). */
  follow(promptId: string): Promise<PromptState> {
    return new Promise((resolve, reject) => {
      this.waiting.set(promptId, { resolve, reject, seenQueued: false, unseen: 0 });
      if (!this.polling) void this.poll();
    });
  }

  private async poll(): Promise<void> {
    this.polling = true;
    try {
      while (this.waiting.size > 0) {
        await sleep(this.intervalMs, this.signal);
        await this.round();
      }
    } catch (err) {
      // The engine cannot be read (stopped, or Ctrl-C): every line it holds ends as it stands.
      for (const waiter of this.waiting.values()) waiter.reject(err);
      this.waiting.clear();
    } finally {
      this.polling = false;
    }
  }

  /** One look: the queue, then the history of each followed prompt no longer in it. */
  private async round(): Promise<void> {
    const queue = await this.client.queue();
    const queued = new Set([...queue.queue_running, ...queue.queue_pending].map(entryId));
    for (const [id, waiter] of [...this.waiting]) {
      if (queued.has(id)) {
        waiter.seenQueued = true;
        continue;
      }
      const entry = await this.client.history(id);
      if (entry) this.settle(id, () => waiter.resolve(stateOfHistory(entry)));
      // Left the queue without an ending: deleted from the queue before it ran.
      else if (waiter.seenQueued) this.settle(id, () => waiter.resolve({ status: 'cancelled', outcome: null, outputs: [] }));
      else if (++waiter.unseen >= UNSEEN_ROUNDS) {
        const lost = new WesError(`the engine has prompt ${id} neither queued nor in its history (restarted?)`, { exitCode: ExitCode.ERROR, code: 'prompt_lost', origin: 'legacy' });
        this.settle(id, () => waiter.reject(lost));
      }
    }
  }

  private settle(id: string, how: () => void): void {
    this.waiting.delete(id);
    how();
  }
}

const BATCH_STATUS: Record<string, string> = { pending: 'queued', running: 'running', success: 'succeeded', cancelled: 'canceled' };

/** A v1 prompt status in the batch's (job API) words, so results read the same on every endpoint. */
export function batchStatusOf(v1Status: string): string {
  return BATCH_STATUS[v1Status] ?? 'failed';
}
