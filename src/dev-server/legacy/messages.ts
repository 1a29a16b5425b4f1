// Turns the engine's job events into what `/ws` sends: the local engine's JSON messages, each
// tagged with `data.prompt_id`, and preview/text items the socket layer encodes as binary frames
// (the frame layout depends on what each connection negotiated, so it is chosen later).
import type { Engine, EngineEvent, StoredOutput } from '../contract.js';
import type { V1FileRef, V1NodeOutput, V1ProgressStateNode, V1WsMessage } from '../../protocol/legacy.js';

export type OutgoingItem =
  | { kind: 'json'; message: V1WsMessage }
  | { kind: 'preview'; promptId: string; node: string; format: 'png' | 'jpeg'; bytes: Buffer }
  | { kind: 'text'; promptId: string; node: string; text: string };

interface JobTrack {
  nodes: Record<string, V1ProgressStateNode>;
  executed: string[];
  current: string | null;
  outputs: Map<string, StoredOutput[]>;
}


/** Key of the node-output object an output kind is listed under. */
function outputKey(type: StoredOutput['type']): string {
  if (type === 'image') return 'images';
  if (type === 'video' || type === 'audio') return type;
  return 'files';
}

export function nodeOutput(outputs: StoredOutput[]): V1NodeOutput {
  const grouped: Record<string, V1FileRef[]> = {};
  for (const output of outputs) {
    const key = outputKey(output.type);
    (grouped[key] ??= []).push({ filename: output.name, subfolder: output.subfolder, type: output.folderType });
  }
  return grouped;
}

function splitTraceback(traceback: string): string[] {
  return traceback === '' ? [] : traceback.split(/(?<=\n)/);
}

function json(message: V1WsMessage): OutgoingItem {
  return { kind: 'json', message };
}

export class V1MessageMapper {
  private readonly tracks = new Map<string, JobTrack>();

  constructor(private readonly engine: Engine) {}

  queueRemaining(): number {
    // Asked on every queued and started event: walking every job here made a long run quadratic.
    return this.engine.activeCount();
  }

  statusMessage(promptId?: string, sid?: string): V1WsMessage {
    return {
      type: 'status',
      data: {
        status: { exec_info: { queue_remaining: this.queueRemaining() } },
        ...(sid !== undefined ? { sid } : {}),
        ...(promptId !== undefined ? { prompt_id: promptId } : {}),
      },
    };
  }

  private track(promptId: string): JobTrack {
    let track = this.tracks.get(promptId);
    if (!track) {
      track = { nodes: {}, executed: [], current: null, outputs: new Map() };
      this.tracks.set(promptId, track);
    }
    return track;
  }

  private classOf(promptId: string, node: string | null): string | null {
    if (node === null) return null;
    return this.engine.get(promptId)?.workflow[node]?.class_type ?? null;
  }

  private progressState(promptId: string): OutgoingItem {
    // Each node copied (its fields are plain values): structuredClone cost every sampler step a serialisation.
    const nodes = Object.fromEntries(Object.entries(this.track(promptId).nodes).map(([id, node]) => [id, { ...node }]));
    return { kind: 'json', message: { type: 'progress_state', data: { prompt_id: promptId, nodes } } };
  }

  private setNode(promptId: string, node: string, patch: Partial<V1ProgressStateNode>): void {
    const track = this.track(promptId);
    const previous = track.nodes[node] ?? {
      value: 0,
      max: 1,
      state: 'pending' as const,
      node_id: node,
      prompt_id: promptId,
      display_node_id: node,
      parent_node_id: null,
      real_node_id: node,
    };
    track.nodes[node] = { ...previous, ...patch };
  }

  private finish(promptId: string): void {
    this.tracks.delete(promptId);
  }

  map(promptId: string, event: EngineEvent): OutgoingItem[] {
    const timestamp = Date.now();
    switch (event.type) {
      case 'queued':
        return [json(this.statusMessage(promptId))];
      case 'started':
        this.track(promptId);
        return [json(this.statusMessage(promptId)), json({ type: 'execution_start', data: { prompt_id: promptId, timestamp } })];
      case 'cached': {
        const track = this.track(promptId);
        track.executed.push(...event.nodes);
        for (const node of event.nodes) this.setNode(promptId, node, { state: 'finished', value: 1, max: 1 });
        return [json({ type: 'execution_cached', data: { nodes: [...event.nodes], prompt_id: promptId, timestamp } })];
      }
      case 'node_start':
        this.track(promptId).current = event.node;
        this.setNode(promptId, event.node, { state: 'running' });
        return [
          json({ type: 'executing', data: { node: event.node, display_node: event.node, prompt_id: promptId } }),
          this.progressState(promptId),
        ];
      case 'progress':
        this.setNode(promptId, event.node, { state: 'running', value: event.value, max: event.max });
        return [
          json({ type: 'progress', data: { value: event.value, max: event.max, node: event.node, prompt_id: promptId } }),
          this.progressState(promptId),
        ];
      case 'preview':
        return [{ kind: 'preview', promptId, node: event.node, format: event.format, bytes: event.bytes }];
      case 'text':
        return [{ kind: 'text', promptId, node: event.node, text: event.text }];
      case 'log':
        return [json({ type: 'notification', data: { value: event.line, prompt_id: promptId } })];
      case 'output': {
        const outputs = this.track(promptId).outputs;
        outputs.set(event.node, [...(outputs.get(event.node) ?? []), event.output]);
        return [];
      }
      case 'node_done': {
        const track = this.track(promptId);
        const seen = track.outputs.get(event.node) ?? [];
        const all = [...seen, ...event.outputs.filter((o) => !seen.some((s) => s.id === o.id))];
        track.outputs.delete(event.node);
        track.executed.push(event.node);
        if (track.current === event.node) track.current = null;
        const max = track.nodes[event.node]?.max ?? 1;
        this.setNode(promptId, event.node, { state: 'finished', value: max });
        const items = [this.progressState(promptId)];
        if (all.length > 0) {
          items.push(json({ type: 'executed', data: { node: event.node, display_node: event.node, output: nodeOutput(all), prompt_id: promptId } }));
        }
        return items;
      }
      case 'succeeded':
        this.finish(promptId);
        return [
          json({ type: 'execution_success', data: { prompt_id: promptId, timestamp } }),
          json({ type: 'executing', data: { node: null, display_node: null, prompt_id: promptId } }),
          json(this.statusMessage(promptId)),
        ];
      case 'failed':
        return this.ended(promptId, {
          type: 'execution_error',
          data: {
            ...this.endedAt(promptId, event.node),
            exception_type: event.exception_type,
            exception_message: event.message,
            traceback: splitTraceback(event.traceback),
            current_inputs: {},
            current_outputs: {},
            timestamp,
          },
        });
      case 'canceled':
        return this.ended(promptId, { type: 'execution_interrupted', data: { ...this.endedAt(promptId, null), timestamp } });
      case 'expired':
        // v1 has no message for a job that vanished; the status endpoint calls it `lost`.
        return this.ended(promptId, {
          type: 'execution_error',
          data: {
            ...this.endedAt(promptId, null),
            exception_type: 'JobLostError',
            exception_message: 'The job passed its retention deadline before finishing.',
            traceback: [],
            current_inputs: {},
            current_outputs: {},
            timestamp,
          },
        });
    }
  }

  /** Where a prompt that did not succeed stopped: the node, its class, what had run. */
  private endedAt(promptId: string, node: string | null) {
    const track = this.track(promptId);
    const at = node ?? track.current;
    return { prompt_id: promptId, node_id: at, node_type: this.classOf(promptId, at), executed: track.executed };
  }

  /** The message that ends a prompt that did not succeed, then the queue status. */
  private ended(promptId: string, message: V1WsMessage): OutgoingItem[] {
    this.finish(promptId);
    return [json(message), json(this.statusMessage(promptId))];
  }
}
