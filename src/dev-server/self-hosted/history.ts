// The engine's prompt history: a prompt enters it when it has ended (success, error, or
// interrupted while running), never while queued or running, and a prompt deleted from the queue
// before it ran never does. Each entry is
//   {prompt: [number, id, graph, extra_data, outputs_to_execute], outputs: {node: {images: [...]}},
//    status: {status_str, completed, messages: [[type, data], ...]}, meta: {node: {...}}}
// as recorded in the observations. GET /history[/<id>], POST /history {clear|delete}.
import type { DevState, Engine, EngineEvent, RequestContext } from '../contract.js';
import { sendJson } from '../http-kit.js';
import { isObject } from '../../protocol/openapi-document.js';
import { EngineMessageOrder } from './messages.js';
import { queueEntry } from '../legacy/queue.js';
import { readEngineJson, sendBare } from './plain.js';
import { engineTraits } from './version.js';

interface HistoryEntry {
  prompt: unknown[];
  outputs: Record<string, unknown>;
  status: { status_str: 'success' | 'error'; completed: boolean; messages: Array<[string, Record<string, unknown>]> };
  meta: Record<string, { node_id: string; display_node: string; parent_node: null; real_node_id: string }>;
}

/** The engine keeps this many ended prompts (its MAXIMUM_HISTORY_SIZE). */
const MAX_ENTRIES = 10_000;
const KEPT_MESSAGES = new Set(['execution_start', 'execution_cached', 'execution_success', 'execution_error', 'execution_interrupted']);

class EngineHistory {
  readonly entries = new Map<string, HistoryEntry>();
  private readonly open = new Map<string, HistoryEntry>();
  private readonly order: EngineMessageOrder;

  constructor(private readonly state: DevState) {
    this.order = new EngineMessageOrder(state.engine, engineTraits(state));
  }

  readonly onJob = (promptId: string, event: EngineEvent): void => {
    for (const item of this.order.map(promptId, event)) {
      if (item.kind !== 'json') continue;
      const { type, data } = item.message as { type: string; data: Record<string, unknown> };
      if (type === 'execution_start') this.open.set(promptId, this.newEntry(promptId));
      const entry = this.open.get(promptId);
      if (!entry) continue;
      if (KEPT_MESSAGES.has(type)) entry.status.messages.push([type, data]);
      if (type === 'executed' && typeof data.node === 'string') {
        entry.outputs[data.node] = data.output;
        entry.meta[data.node] = { node_id: data.node, display_node: data.node, parent_node: null, real_node_id: data.node };
      }
      if (type === 'execution_success' || type === 'execution_error' || type === 'execution_interrupted') {
        entry.status.status_str = type === 'execution_success' ? 'success' : 'error';
        entry.status.completed = type === 'execution_success';
        this.open.delete(promptId);
        this.entries.set(promptId, entry);
        if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      }
    }
  };

  private newEntry(promptId: string): HistoryEntry {
    const job = this.state.engine.get(promptId);
    const prompt = job ? queueEntry(this.state, job) : [];
    return { prompt, outputs: {}, status: { status_str: 'error', completed: false, messages: [] }, meta: {} };
  }
}

const histories = new WeakMap<DevState, EngineHistory>();

/** Starts recording every prompt's ending; the self-hosted deployment calls it once at start-up. */
export function attachEngineHistory(state: DevState): { close(): void } {
  const history = new EngineHistory(state);
  histories.set(state, history);
  const engine: Engine = state.engine;
  engine.events.on('job', history.onJob);
  return { close: () => engine.events.off('job', history.onJob) };
}

function entriesOf(state: DevState): Map<string, HistoryEntry> {
  return histories.get(state)?.entries ?? new Map();
}

/** A whole-number query value, or null when absent or not one (the engine's int() would refuse it). */
function wholeQuery(ctx: RequestContext, name: string): number | null {
  const raw = ctx.url.searchParams.get(name);
  const value = raw === null ? NaN : Number(raw);
  return Number.isInteger(value) ? value : null;
}

/**
 * Oldest first. `max_items` alone: the last that many; with `offset` (0.3.64 reads it; 0.3.18
 * does not): that many from that position on.
 */
export async function getHistory(ctx: RequestContext): Promise<void> {
  const all = [...entriesOf(ctx.state)];
  const max = wholeQuery(ctx, 'max_items');
  const given = engineTraits(ctx.state).historyOffset ? wholeQuery(ctx, 'offset') : null;
  const from = given !== null && given >= 0 ? given : max !== null ? Math.max(0, all.length - max) : 0;
  const shown = all.slice(from, max !== null && max >= 0 ? from + max : undefined);
  sendJson(ctx, 200, Object.fromEntries(shown));
}

/** Unknown, queued and still-running prompts all answer `{}`. */
export async function getHistoryOf(ctx: RequestContext, promptId: string): Promise<void> {
  const entry = entriesOf(ctx.state).get(promptId);
  sendJson(ctx, 200, entry ? { [promptId]: entry } : {});
}

export async function postHistory(ctx: RequestContext): Promise<void> {
  const body = await readEngineJson(ctx);
  const entries = entriesOf(ctx.state);
  const request = isObject(body) ? body : {};
  if (request.clear === true) entries.clear();
  if (Array.isArray(request.delete)) for (const id of request.delete) if (typeof id === 'string') entries.delete(id);
  sendBare(ctx, 200);
}
