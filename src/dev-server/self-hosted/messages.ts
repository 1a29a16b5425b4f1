// The WebSocket messages of a self-hosted engine, in the order the observations record for one
// prompt: status, execution_start, execution_cached, executing/executed per node, the ending
// (execution_success, execution_error or execution_interrupted), status, then `executing` with
// `node: null` last. Unlike the cloud deployment it sends no progress_state, no notifications, no
// text frames, and `status` messages without a prompt id. A prompt deleted from the queue before
// it ran ends with no message of its own (only the queue status changes); the engine has no expiry.
import type { Engine, EngineEvent } from '../contract.js';
import { V1MessageMapper, type OutgoingItem } from '../legacy/messages.js';

type JsonItem = Extract<OutgoingItem, { kind: 'json' }>;

const ENDINGS = new Set(['execution_success', 'execution_error', 'execution_interrupted']);
const NOT_SENT = new Set(['progress_state', 'notification']);

function json(type: string, data: Record<string, unknown>): JsonItem {
  return { kind: 'json', message: { type, data } as JsonItem['message'] };
}

export class EngineMessageOrder {
  private readonly inner: V1MessageMapper;
  private readonly started = new Set<string>();

  constructor(engine: Engine) {
    this.inner = new V1MessageMapper(engine);
  }

  /** `status` as the engine sends it: `sid` only on connect, never a prompt id. */
  statusMessage(_promptId?: string, sid?: string): JsonItem['message'] {
    return this.inner.statusMessage(undefined, sid);
  }

  map(promptId: string, event: EngineEvent): OutgoingItem[] {
    if (event.type === 'started') this.started.add(promptId);
    if (event.type === 'expired') return [];
    if (event.type === 'canceled' && !this.started.has(promptId)) return [json('status', this.statusMessage().data)];
    const items = this.inner
      .map(promptId, event)
      .filter((item) => item.kind === 'preview' || (item.kind === 'json' && !NOT_SENT.has(item.message.type)))
      .map((item) => (item.kind === 'json' && item.message.type === 'status' ? json('status', this.statusMessage().data) : item));
    const ending = items.find((item) => item.kind === 'json' && ENDINGS.has(item.message.type));
    if (!ending) return items;
    this.started.delete(promptId);
    return [ending, json('status', this.statusMessage().data), json('executing', { node: null, prompt_id: promptId })];
  }
}

