// The WebSocket messages of a self-hosted engine for one prompt, in the order the recordings show
// (recordings/engine-0.3.*-sampler-ws*.json): status, execution_start, execution_cached, per node
// executing (0.3.64: after a `progress_state`), per step `progress` (0.3.64: after a
// `progress_state`), `executed` for output nodes, the ending (execution_success, execution_error
// or execution_interrupted), status, then `executing` with `node: null` last. `status` messages
// carry no prompt id and go to every client.
//
// Who gets what (recordings/engine-no-client-id-ws.json): a prompt's lifecycle messages, its
// progress and previews go only to the client whose id came with the prompt (`client_id`). A
// prompt posted without one produces no lifecycle messages at all; its progress (0.3.18: with
// `node: null`), its `progress_state` (0.3.64) and its previews (type 1) go to every client.
// A prompt deleted from the queue before it ran ends with no message of its own (only the queue
// status changes); the engine has no expiry, no notifications and no text frames.
import type { Engine, EngineEvent } from '../contract.js';
import { V1MessageMapper, type OutgoingItem } from '../legacy/messages.js';
import type { EngineTraits } from './version.js';

/** Where an item goes: a client id, every client (undefined), or nobody (null: kept by the history only). */
export type RoutedItem = OutgoingItem & { to?: string | null };

type JsonItem = Extract<OutgoingItem, { kind: 'json' }>;

const ENDINGS = new Set(['execution_success', 'execution_error', 'execution_interrupted']);
const LIFECYCLE = new Set(['execution_start', 'execution_cached', 'executing', 'executed', ...ENDINGS]);
/** Per event, the order the engine sends the mapper's messages in: `progress_state` first, except after a node's `executed`. */
const STATE_FIRST = new Set<EngineEvent['type']>(['node_start', 'progress']);

function json(type: string, data: Record<string, unknown>): JsonItem {
  return { kind: 'json', message: { type, data } as JsonItem['message'] };
}

function typeOf(item: OutgoingItem): string | null {
  return item.kind === 'json' ? item.message.type : null;
}

export class EngineMessageOrder {
  private readonly inner: V1MessageMapper;
  private readonly started = new Set<string>();

  constructor(
    private readonly engine: Engine,
    private readonly traits: EngineTraits,
  ) {
    this.inner = new V1MessageMapper(engine);
  }

  /** `status` as the engine sends it: `sid` only on connect, never a prompt id. */
  statusMessage(_promptId?: string, sid?: string): JsonItem['message'] {
    return this.inner.statusMessage(undefined, sid);
  }

  map(promptId: string, event: EngineEvent): RoutedItem[] {
    if (event.type === 'started') this.started.add(promptId);
    if (event.type === 'expired') return [];
    if (event.type === 'canceled' && !this.started.has(promptId)) return [json('status', this.statusMessage().data)];
    const clientId = this.clientOf(promptId);
    let items = this.inner.map(promptId, event).filter((item) => this.sent(item));
    if (STATE_FIRST.has(event.type)) items = [...items.filter((i) => typeOf(i) === 'progress_state'), ...items.filter((i) => typeOf(i) !== 'progress_state')];
    else if (event.type === 'node_done') items = [...items.filter((i) => typeOf(i) !== 'progress_state'), ...items.filter((i) => typeOf(i) === 'progress_state')];
    const ending = items.find((item) => ENDINGS.has(typeOf(item) ?? ''));
    if (ending) {
      this.started.delete(promptId);
      items = [ending, json('status', {}), json('executing', { node: null, prompt_id: promptId })];
    }
    return items.map((item) => this.route(item, clientId));
  }

  private clientOf(promptId: string): string | undefined {
    const id = this.engine.get(promptId)?.extraData.client_id;
    return typeof id === 'string' ? id : undefined;
  }

  /** What the engine sends at all: no text frames, no notifications, `progress_state` only from 0.3.64 on. */
  private sent(item: OutgoingItem): boolean {
    if (item.kind === 'text') return false;
    const type = typeOf(item);
    return type !== 'notification' && (type !== 'progress_state' || this.traits.progressState);
  }

  private route(item: OutgoingItem, clientId: string | undefined): RoutedItem {
    const type = typeOf(item);
    if (type === 'status') return json('status', this.statusMessage().data);
    if (clientId !== undefined) return { ...item, to: clientId };
    if (type !== null && LIFECYCLE.has(type)) return { ...item, to: null };
    // Broadcast progress of a client-less prompt: 0.3.18 does not say which node it is.
    if (type === 'progress' && !this.traits.progressState) return json('progress', { ...(item as JsonItem).message.data, node: null });
    return item;
  }
}
