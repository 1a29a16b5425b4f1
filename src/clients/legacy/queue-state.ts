// The queue as sets of prompt ids, from either tuple shape: an engine's `[number, id, prompt,
// extra_data, outputs_to_execute]` and the published cloud's `[number, id, workflow,
// output_node_ids, {create_time}]`. Both keep the prompt id second.
import type { V1Queue } from '../../protocol/legacy.js';
import type { LegacyClient } from './client.js';
import { entryId } from './prompt-state.js';

export interface QueueState {
  queue: V1Queue;
  running: Set<string>;
  pending: Set<string>;
}

function ids(entries: unknown[]): Set<string> {
  return new Set(entries.map(entryId).filter((id): id is string => id !== null));
}

export async function readQueue(client: LegacyClient): Promise<QueueState> {
  const queue = await client.queue();
  return { queue, running: ids(queue.queue_running), pending: ids(queue.queue_pending) };
}

/** The output node ids of either tuple shape: an array at index 4 (engine) or at index 3 (cloud). */
export function entryOutputs(tuple: unknown[]): string[] {
  const list = Array.isArray(tuple[4]) ? tuple[4] : Array.isArray(tuple[3]) ? tuple[3] : [];
  return list.filter((o): o is string => typeof o === 'string');
}
