// One-line summaries of node errors for messages ("names the rejected nodes it has room for").
import type { NodeError } from '../contract.js';

export function summarizeNodeErrors(nodeErrors: Record<string, NodeError>, room = 3): string {
  const entries = Object.entries(nodeErrors);
  const shown = entries.slice(0, room).map(([id, e]) => {
    const first = e.errors[0];
    return `node ${id}${e.class_type ? ` (${e.class_type})` : ''}: ${first?.message ?? 'rejected'}${first?.details ? ` [${first.details}]` : ''}`;
  });
  const more = entries.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}
