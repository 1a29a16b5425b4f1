// Follows one prompt through the v1 WebSocket stream, where a connection may see the messages of
// other jobs (on the cloud every connection of the user sees every job; an engine broadcasts the
// progress and previews of prompts sent without a client id): it keeps ours (by `data.prompt_id`),
// remembers which prompts are executing so a preview without a prompt id (type 1, type 3) is only
// claimed when ours is the only one running, and collects the output file references of
// `executed` messages. Node and step come from `executing`, `progress` and `progress_state`.
import type { SocketMessage } from './socket.js';
import type { V1FileRef } from '../../protocol/legacy.js';

export type WsOutcome =
  | { kind: 'success' }
  | { kind: 'interrupted' }
  | {
      kind: 'error';
      exceptionType: string;
      exceptionMessage: string;
      nodeId: string | null;
      nodeType: string | null;
      traceback: string;
    };

export interface NodeFileRef extends V1FileRef {
  node: string;
  /** The key it was listed under (`images`, `video`, `audio`, ...). */
  kind: string;
}

export type Claim = { ours: true; node: string | null } | { ours: false; reason: string };

const ENDS_EXECUTION = new Set(['execution_success', 'execution_error', 'execution_interrupted']);
/** Messages of a prompt that is executing now. */
const STARTS_OR_RUNS = new Set(['execution_start', 'execution_cached', 'executing', 'progress', 'progress_state', 'executed']);

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Every array of `{filename, ...}` objects inside a node output, whatever its key. */
export function fileRefsOf(node: string, output: unknown): NodeFileRef[] {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return [];
  const refs: NodeFileRef[] = [];
  for (const [kind, list] of Object.entries(output)) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (typeof item !== 'object' || item === null) continue;
      const ref = item as Record<string, unknown>;
      const filename = str(ref.filename);
      if (!filename) continue;
      refs.push({ node, kind, filename, subfolder: str(ref.subfolder) ?? '', type: str(ref.type) ?? 'output' });
    }
  }
  return refs;
}

/** An `execution_error` message's data (on the socket, or in an engine's history) as an outcome. */
export function errorOutcome(data: Record<string, unknown>): WsOutcome {
  const traceback = Array.isArray(data.traceback) ? data.traceback.filter((l) => typeof l === 'string').join('') : (str(data.traceback) ?? '');
  return {
    kind: 'error',
    exceptionType: str(data.exception_type) ?? 'UnknownError',
    exceptionMessage: str(data.exception_message) ?? '',
    nodeId: str(data.node_id),
    nodeType: str(data.node_type),
    traceback,
  };
}

/** The node a `progress_state` message says is running, with its step when it counts steps. */
function runningNode(nodes: unknown): { node: string; step: { value: number; max: number } | null } | null {
  if (typeof nodes !== 'object' || nodes === null) return null;
  let found: { node: string; step: { value: number; max: number } | null } | null = null;
  for (const [id, state] of Object.entries(nodes)) {
    if (typeof state !== 'object' || state === null || (state as Record<string, unknown>).state !== 'running') continue;
    const { value, max, display_node_id: display } = state as Record<string, unknown>;
    const [v, m] = [num(value), num(max)];
    found = { node: str(display) ?? id, step: v !== null && m !== null && m > 1 ? { value: v, max: m } : null };
  }
  return found;
}

export interface TrackerOptions {
  /**
   * The server runs one prompt at a time (a self-hosted engine): the prompt a message last named
   * is the one executing, whatever the others' messages said before (an engine tells nobody when
   * a prompt sent without a client id ends).
   */
  oneAtATime?: boolean;
}

export class PromptTracker {
  /** Node now executing in our prompt. */
  currentNode: string | null = null;
  step: { value: number; max: number } | null = null;
  readonly cached: string[] = [];
  readonly outputs: NodeFileRef[] = [];
  readonly notifications: string[] = [];
  outcome: WsOutcome | null = null;
  private readonly executing = new Set<string>();

  constructor(
    readonly promptId: string,
    private readonly options: TrackerOptions = {},
  ) {}

  /** Updates the state from any message; true when the message belongs to our prompt. */
  accept(message: SocketMessage): boolean {
    const promptId = str(message.data.prompt_id);
    this.trackExecuting(message, promptId);
    if (promptId !== this.promptId) return false;
    const data = message.data;
    switch (message.type) {
      case 'executing': {
        const node = str(data.node);
        this.currentNode = node || null;
        this.step = null;
        break;
      }
      case 'progress': {
        const value = num(data.value);
        const max = num(data.max);
        if (value !== null && max !== null) this.step = { value, max };
        const node = str(data.node);
        if (node) this.currentNode = node;
        break;
      }
      case 'progress_state': {
        const running = runningNode(data.nodes);
        if (running) {
          if (running.node !== this.currentNode) this.step = null;
          this.currentNode = running.node;
          if (running.step) this.step = running.step;
        }
        break;
      }
      case 'execution_cached':
        if (Array.isArray(data.nodes)) this.cached.push(...data.nodes.filter((n): n is string => typeof n === 'string'));
        break;
      case 'executed': {
        const node = str(data.node) ?? '';
        for (const ref of fileRefsOf(node, data.output)) {
          if (!this.outputs.some((o) => o.filename === ref.filename && o.subfolder === ref.subfolder && o.type === ref.type)) this.outputs.push(ref);
        }
        break;
      }
      case 'notification': {
        const text = str(data.value);
        if (text) this.notifications.push(text);
        break;
      }
      case 'execution_success':
        this.outcome = { kind: 'success' };
        break;
      case 'execution_interrupted':
        this.outcome = { kind: 'interrupted' };
        break;
      case 'execution_error':
        this.outcome = errorOutcome(data);
        break;
      default:
        break; // status and types this client does not know
    }
    return true;
  }

  private trackExecuting(message: SocketMessage, promptId: string | null): void {
    if (!promptId) return;
    const ends = ENDS_EXECUTION.has(message.type) || (message.type === 'executing' && (message.data.node === null || message.data.node === ''));
    if (ends) {
      this.executing.delete(promptId);
      return;
    }
    if (!STARTS_OR_RUNS.has(message.type)) return;
    if (this.options.oneAtATime && !this.executing.has(promptId)) this.executing.clear();
    this.executing.add(promptId);
  }

  /** After a gap in the stream the other prompts' states are unknown; ours re-enters on its next message. */
  forgetOthers(): void {
    this.executing.clear();
  }

  /** Whether a frame that names no prompt belongs to ours: only when ours alone is executing. */
  claimAnonymous(): Claim {
    if (!this.executing.has(this.promptId)) return { ours: false, reason: 'our prompt is not executing' };
    if (this.executing.size > 1) return { ours: false, reason: `${this.executing.size} prompts are executing, so it cannot be attributed` };
    return { ours: true, node: this.currentNode };
  }
}
