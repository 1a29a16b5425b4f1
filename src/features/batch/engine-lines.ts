// A self-hosted ComfyUI engine as an endpoint of a batch. Its lines go in as v1 prompts (POST
// /prompt), each carrying its line's key in extra_data (`wes_batch_key`): an engine takes no
// Idempotency-Key, but it keeps extra_data in its queue and its history, so a line whose answer was
// lost, or whose run was killed, is looked up there by its key before it is ever sent again.
//
// Completions come from the engine's WebSocket: every prompt names this batch's socket as its
// client (`client_id`), and the engine sends that client, and only it, each prompt's lifecycle
// messages; `executed` names the outputs, the ending message ends the line (a newer engine also
// takes wes's own `prompt_id`, so the id is known before the answer). The queue and history are
// read only for what the socket cannot tell: prompts this socket did not submit (found by key
// after a resume), prompts that were running while the socket was down, a prompt taken off the
// queue (an engine says nothing then), and, now and then, as a safety net.
import { randomUUID } from 'node:crypto';
import { ApiError, ExitCode, WesError } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import { sleep } from '../../http/retry.js';
import { isRecord } from '../../clients/shared/response-check.js';
import type { LegacyClient } from '../../clients/legacy/client.js';
import { entryId, stateOfHistory, type PromptState } from '../../clients/legacy/prompt-state.js';
import { openLegacySocket, type LegacySocket, type SocketEvent } from '../../clients/legacy/socket.js';
import { errorOutcome, fileRefsOf, type NodeFileRef } from '../../clients/legacy/tracker.js';

/** The extra_data key that names the batch line a prompt was made for. */
export const BATCH_KEY = 'wes_batch_key';

/** Saves a finished prompt's output files into a folder (the command side provides it). */
export type SaveEngineOutputs = (client: LegacyClient, refs: NodeFileRef[], dir: string) => Promise<Array<{ ref: NodeFileRef; path: string; hash: string | null; verified: boolean }>>;

/** Reads of the queue in a row that did not show a just-submitted prompt, after which it is taken as lost. */
const UNSEEN_ROUNDS = 3;
/** While the socket carries every followed prompt, the queue and history are read this seldom, as a safety net. */
const SAFETY_EVERY_MS = 5_000;
/** The socket is read in batches this many ms apart: short, since a line waits for its ending message. */
const READ_EVERY_MS = 5;
/** How long the socket stays open with no line in flight: a batch's next line comes sooner, a finished run waits this long to exit. */
const IDLE_CLOSE_MS = 200;

interface Waiter {
  resolve: (state: PromptState) => void;
  reject: (err: unknown) => void;
  seenQueued: boolean;
  unseen: number;
}

/** What the socket has said of one prompt so far: its outputs, and its ending once it came. */
interface Heard {
  outputs: NodeFileRef[];
  ended: PromptState | null;
  /** The socket was down while it may have run: its messages may be incomplete, the history decides. */
  gap: boolean;
}

const ENDINGS = new Set(['execution_success', 'execution_error', 'execution_interrupted']);

function keyOf(extraData: unknown): string | undefined {
  return isRecord(extraData) && typeof extraData[BATCH_KEY] === 'string' ? extraData[BATCH_KEY] : undefined;
}

/** A 200 answer that still refused the prompt (`error` and `node_errors`), as the refusal it is. */
function refusal(answer: { error?: unknown; node_errors?: unknown }): ApiError {
  const error = answer.error;
  const message = typeof error === 'string' ? error : isRecord(error) && typeof error.message === 'string' ? error.message : 'the engine refused the prompt';
  return new ApiError(`the engine refused the prompt: ${message}`, { status: 400, code: 'invalid_prompt', origin: 'legacy', details: { node_errors: isRecord(answer.node_errors) ? answer.node_errors : {} } });
}

/** The ending message of a prompt as the state a line ends with. */
function stateOfEnding(type: string, data: Record<string, unknown>, outputs: NodeFileRef[]): PromptState {
  if (type === 'execution_success') return { status: 'success', outcome: { kind: 'success' }, outputs };
  if (type === 'execution_interrupted') return { status: 'cancelled', outcome: { kind: 'interrupted' }, outputs };
  return { status: 'error', outcome: errorOutcome(data), outputs };
}

export class EngineLines {
  private readonly waiting = new Map<string, Waiter>();
  /**
   * What the socket said of each prompt it carried, by id, until its line is settled. Every
   * lifecycle message on this socket is of a prompt of this batch (its client id is the batch's
   * own), also one whose answer has not come back yet (a quick prompt may end before it does).
   */
  private readonly heard = new Map<string, Heard>();
  private polling = false;
  private wake: (() => void) | null = null;
  private socket: LegacySocket | null = null;
  /** Settles when the socket's first connection attempt has opened or failed. */
  private firstAttempt: Promise<void> = Promise.resolve();
  private socketUp = false;
  /** The socket gave up for good: the queue and history are read at the batch's interval from then on. */
  private socketLost = false;
  private readonly clientId = randomUUID();

  constructor(
    readonly client: LegacyClient,
    private readonly http: HttpClient,
    private readonly intervalMs: number,
    private readonly signal: AbortSignal,
    readonly saveOutputs?: SaveEngineOutputs,
  ) {}

  /** Opens the socket once, before the first submit, so that no prompt's messages come before it listens. */
  private async listen(): Promise<void> {
    if (this.socketLost) return;
    if (!this.socket) {
      let answered!: () => void;
      this.firstAttempt = new Promise((resolve) => (answered = resolve));
      const socket = (this.socket = openLegacySocket({
        http: this.http,
        clientId: this.clientId,
        signal: this.signal,
        readEveryMs: READ_EVERY_MS,
        onEvent: (event) => {
          if (event.kind === 'open' || event.kind === 'drop') answered();
          this.onEvent(event);
        },
      }));
      socket.closed.catch(() => {
        answered();
        if (this.socket !== socket) return;
        this.socketLost = true;
        this.socketUp = false;
        this.markGaps();
        this.poke();
      });
    }
    // Open, or its first attempt failed: a line does not wait out the reconnects (its own submit tells).
    await this.firstAttempt;
  }

  /** Submits one line's workflow; its key rides in extra_data, the socket's id and wes's own prompt id beside it. */
  async submit(workflow: Record<string, unknown>, extraData: Record<string, unknown> | undefined, key: string): Promise<string> {
    await this.listen();
    const up = this.socketUp;
    let answer: Awaited<ReturnType<LegacyClient['submit']>>;
    try {
      answer = await this.client.submit(workflow, { ...extraData, [BATCH_KEY]: key }, { retries: 0, clientId: this.clientId, promptId: randomUUID() });
      if (answer.error !== undefined || typeof answer.prompt_id !== 'string') throw refusal(answer);
    } catch (err) {
      // No prompt to hear of: a socket opened for this one (a stopped engine's, reconnecting for seconds) must not outlive the run.
      this.closeWhenIdle();
      throw err;
    }
    // Sent while the socket was down: what it says of the prompt may be incomplete.
    const heard = this.heard.get(answer.prompt_id);
    if (!heard) this.heard.set(answer.prompt_id, { outputs: [], ended: null, gap: !up });
    else if (!up) heard.gap = true;
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

  /** Waits for a prompt to end: by the socket's ending message, else by the engine's queue and history. */
  follow(promptId: string): Promise<PromptState> {
    const heard = this.heard.get(promptId);
    if (heard?.ended && !heard.gap) {
      this.heard.delete(promptId);
      this.closeWhenIdle();
      return Promise.resolve(heard.ended);
    }
    return new Promise((resolve, reject) => {
      this.waiting.set(promptId, { resolve, reject, seenQueued: false, unseen: 0 });
      if (!this.polling) void this.poll();
      else if (!this.byMessages(promptId)) this.poke();
    });
  }

  private onEvent(event: SocketEvent): void {
    if (event.kind === 'open') {
      this.socketUp = true;
      // A reconnect: what ran meanwhile is read from the engine once.
      if (event.reconnected) this.poke();
    } else if (event.kind === 'drop') {
      // Lost: the lines in flight are read from the engine at the batch's interval until it is back.
      this.socketUp = false;
      this.markGaps();
      this.poke();
    } else if (event.kind === 'message') {
      const { type, data } = event.message;
      const id = typeof data.prompt_id === 'string' ? data.prompt_id : undefined;
      // `executing` with no node comes after a prompt's ending: nothing to keep of it.
      if (id === undefined || (type === 'executing' && typeof data.node !== 'string')) return;
      let heard = this.heard.get(id);
      if (!heard) this.heard.set(id, (heard = { outputs: [], ended: null, gap: false }));
      if (heard.ended) return;
      if (type === 'executed') heard.outputs.push(...fileRefsOf(typeof data.node === 'string' ? data.node : '', data.output));
      else if (ENDINGS.has(type)) {
        heard.ended = stateOfEnding(type, data, heard.outputs);
        this.settleHeard(id);
        this.closeWhenIdle();
      }
    }
  }

  /** Whether the socket will tell this prompt's end: it was submitted on it, and the socket has not been down since. */
  private byMessages(promptId: string): boolean {
    const heard = this.heard.get(promptId);
    return heard !== undefined && !heard.gap && !this.socketLost;
  }

  private markGaps(): void {
    for (const heard of this.heard.values()) if (!heard.ended) heard.gap = true;
  }

  private settleHeard(promptId: string): void {
    const waiter = this.waiting.get(promptId);
    const heard = this.heard.get(promptId);
    if (!waiter || !heard?.ended || heard.gap) return;
    this.heard.delete(promptId);
    this.settle(promptId, () => waiter.resolve(heard.ended!));
  }

  /** Reads the engine at once (a prompt the socket cannot tell of, or a reconnect). */
  private poke(): void {
    this.wake?.();
  }

  private async poll(): Promise<void> {
    this.polling = true;
    try {
      while (this.waiting.size > 0) {
        const unheard = [...this.waiting.keys()].some((id) => !this.byMessages(id));
        await this.pause(unheard ? this.intervalMs : SAFETY_EVERY_MS);
        if (this.waiting.size > 0) await this.round();
      }
    } catch (err) {
      // The engine cannot be read (stopped, or Ctrl-C): every line it holds ends as it stands.
      for (const [id, waiter] of this.waiting) {
        this.heard.delete(id);
        waiter.reject(err);
      }
      this.waiting.clear();
      // Its socket goes too, else its reconnects to a stopped engine (5 tries, seconds apart) keep the finished run from exiting.
      this.closeWhenIdle();
    } finally {
      this.polling = false;
    }
  }

  /** Sleeps `ms`, or until poked. */
  private async pause(ms: number): Promise<void> {
    const woken = new Promise<void>((resolve) => (this.wake = resolve));
    const stop = new AbortController();
    const onAbort = () => stop.abort(this.signal.reason);
    this.signal.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.race([sleep(ms, stop.signal), woken]);
    } finally {
      this.wake = null;
      stop.abort();
      this.signal.removeEventListener('abort', onAbort);
    }
    if (this.signal.aborted) throw this.signal.reason;
  }

  /** One look: the queue, then the history of each followed prompt no longer in it. */
  private async round(): Promise<void> {
    const queue = await this.client.queue();
    const queued = new Set([...queue.queue_running, ...queue.queue_pending].map(entryId));
    for (const [id, waiter] of [...this.waiting]) {
      if (queued.has(id)) {
        waiter.seenQueued = true;
        waiter.unseen = 0;
        continue;
      }
      const entry = await this.client.history(id);
      if (!this.waiting.has(id)) continue; // the socket ended it meanwhile
      if (entry) this.settle(id, () => waiter.resolve(stateOfHistory(entry)));
      // Left the queue without an ending: deleted from the queue before it ran.
      else if (waiter.seenQueued) this.settle(id, () => waiter.resolve({ status: 'cancelled', outcome: null, outputs: [] }));
      else if (!this.byMessages(id) && ++waiter.unseen >= UNSEEN_ROUNDS) {
        const lost = new WesError(`the engine has prompt ${id} neither queued nor in its history (restarted?)`, { exitCode: ExitCode.ERROR, code: 'prompt_lost', origin: 'legacy' });
        this.settle(id, () => waiter.reject(lost));
      }
    }
  }

  private settle(id: string, how: () => void): void {
    this.waiting.delete(id);
    this.heard.delete(id);
    how();
    if (this.waiting.size > 0) return;
    this.poke(); // the poller's wait ends with the last line, so the process is free to exit
    this.closeWhenIdle();
  }

  /** No line is waiting, and every prompt the socket told of has ended (one no line asked for keeps nothing open). */
  private idle(): boolean {
    if (this.waiting.size > 0) return false;
    for (const heard of this.heard.values()) if (!heard.ended) return false;
    return true;
  }

  /** Nothing left to hear: the socket is closed unless a new line comes soon (the next line of a batch does). */
  private closeWhenIdle(): void {
    if (!this.idle()) return;
    setTimeout(() => {
      if (!this.idle() || !this.socket) return;
      this.socket.close();
      this.socket = null;
      this.socketUp = false;
    }, IDLE_CLOSE_MS);
  }
}

const BATCH_STATUS: Record<string, string> = { pending: 'queued', running: 'running', success: 'succeeded', cancelled: 'canceled' };

/** A v1 prompt status in the batch's (job API) words, so results read the same on every endpoint. */
export function batchStatusOf(v1Status: string): string {
  return BATCH_STATUS[v1Status] ?? 'failed';
}
