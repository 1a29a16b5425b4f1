// One row of the v1 queue (`wes legacy queue`, the MCP engine tool): state, number, prompt id, nodes, output nodes.
import type { Cell } from '../../render/table.js';
import { isRecord } from '../../clients/legacy/client.js';
import { entryOutputs } from '../../clients/legacy/queue-state.js';

/** One queue tuple (an engine's or the cloud's shape), read defensively. */
export function queueRow(state: string, entry: unknown): Cell[] {
  const tuple = Array.isArray(entry) ? entry : [];
  const number = typeof tuple[0] === 'number' ? tuple[0] : null;
  const id = typeof tuple[1] === 'string' ? tuple[1] : '?';
  const nodes = isRecord(tuple[2]) ? Object.keys(tuple[2]).length : null;
  return [state, number, id, nodes, entryOutputs(tuple).join(', ')];
}
