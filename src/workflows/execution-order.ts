// The order the editor walks nodes in when it exports (LGraph.computeExecutionOrder in litegraph):
// nodes without linked inputs first, in saved order; then, breadth first, each node once every
// link into it has been followed from its origin's outputs; nodes left over (cycles, links the
// outputs do not list) last, numeric ids ascending as a JS object's keys iterate. PrimitiveNodes
// write their values in this order (the last one wins a widget two of them feed); the exported
// object itself lists integer ids ascending, as any JS object does.
import type { UiGraph, UiNode } from './ui-graph.js';

export function executionOrder(graph: UiGraph): UiNode[] {
  const ordered: UiNode[] = [];
  const pending = new Map<string, UiNode>(graph.nodes.map((n) => [n.id, n]));
  const remaining = new Map<string, number>();
  const ready: UiNode[] = [];
  for (const node of graph.nodes) {
    const linked = node.inputs.filter((i) => i.link !== null).length;
    if (linked === 0) ready.push(node);
    else remaining.set(node.id, linked);
  }
  const visited = new Set<string>();
  for (let node = ready.shift(); node; node = ready.shift()) {
    ordered.push(node);
    pending.delete(node.id);
    for (const linkIds of node.outputLinks) {
      for (const linkId of linkIds) {
        const link = graph.links.get(linkId);
        if (!link || visited.has(link.id)) continue;
        visited.add(link.id);
        const target = graph.byId.get(link.targetId);
        if (!target) continue;
        const left = (remaining.get(target.id) ?? 0) - 1;
        remaining.set(target.id, left);
        if (left === 0) ready.push(target);
      }
    }
  }
  const rest = [...pending.values()];
  const integerKey = (id: string) => /^(0|[1-9]\d*)$/.test(id) && Number(id) <= 4294967294;
  rest.sort((a, b) => {
    const ai = integerKey(a.id);
    const bi = integerKey(b.id);
    if (ai && bi) return Number(a.id) - Number(b.id);
    return ai === bi ? 0 : ai ? -1 : 1;
  });
  return [...ordered, ...rest];
}
