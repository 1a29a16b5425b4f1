// Following a link back to the node output that really feeds an input, as the editor's export
// does (ExecutableNodeDTO.resolveInput / resolveOutput in the ComfyUI frontend's litegraph):
// frontend-only nodes pass their input slot straight through (a Reroute), or feed nothing (a
// PrimitiveNode, whose value is written into widgets instead); a bypassed node hands over the
// input that matches the wanted type; anything else is the origin.
import { execId, type Scope } from './scopes.js';
import { MODE_BYPASS, SUBGRAPH_INPUT_ID, SUBGRAPH_OUTPUT_ID, type UiNode } from './ui-graph.js';

/** Node types the editor keeps to itself (`isVirtualNode`): never sent to the engine. */
export const VIRTUAL_TYPES = new Set(['Reroute', 'PrimitiveNode', 'Note', 'MarkdownNote']);

/** What feeds an input: another node's output (by execution id), or a subgraph's promoted widget value. */
export type Origin = { nodeId: string; slot: number } | { value: unknown };

export class LinkProblem extends Error {}

/** LiteGraph.isValidConnection: `*` and empty match anything; otherwise case-insensitive, comma lists overlap. */
export function typesConnect(a: unknown, b: unknown): boolean {
  const left = a === '' || a === '*' ? 0 : a;
  const right = b === '' || b === '*' ? 0 : b;
  if (!left || !right || left === right) return true;
  const x = String(left).toLowerCase();
  const y = String(right).toLowerCase();
  if (!x.includes(',') && !y.includes(',')) return x === y;
  const ys = y.split(',');
  return x.split(',').some((t) => ys.includes(t));
}

export class LinkResolver {
  /** The origin feeding input `slot` of `node` (in `scope`), or undefined when nothing real feeds it. */
  resolveInput(scope: Scope, node: UiNode, slot: number, visited = new Set<string>(), type?: unknown): Origin | undefined {
    const key = `${execId(scope, node)}[I]${slot}`;
    if (visited.has(key)) throw new LinkProblem(`a circular chain of links passes through input ${slot} of node ${execId(scope, node)}`);
    visited.add(key);
    const input = node.inputs[slot];
    if (!input || input.link === null) return undefined;
    const link = scope.graph.links.get(input.link);
    if (!link) throw new LinkProblem(`input ${input.name} refers to link ${input.link}, which is not in the workflow's links`);
    if (link.originId === SUBGRAPH_INPUT_ID && scope.instance) return this.fromSubgraphInput(scope.instance, link.originSlot, input.name, visited);
    const origin = scope.graph.byId.get(link.originId);
    if (!origin) throw new LinkProblem(`input ${input.name} is linked to node ${link.originId}, which is not in the workflow`);
    return this.resolveOutput(scope, origin, link.originSlot, type ?? input.type, visited);
  }

  /** A link from a subgraph's input: the instance's own link when it has one, else its promoted widget value. */
  private fromSubgraphInput(instance: NonNullable<Scope['instance']>, slot: number, name: string, visited: Set<string>): Origin | undefined {
    const outer = instance.node.inputs[slot];
    if (!outer) throw new LinkProblem(`input ${name} is linked to subgraph input ${slot}, which the subgraph node does not have`);
    if (outer.link === null) return instance.promoted.has(slot) ? { value: instance.promoted.get(slot) } : undefined;
    return this.resolveInput(instance.scope, instance.node, slot, visited);
  }

  private resolveOutput(scope: Scope, node: UiNode, slot: number, type: unknown, visited: Set<string>): Origin | undefined {
    const key = `${execId(scope, node)}[O]${slot}`;
    if (visited.has(key)) throw new LinkProblem(`a circular chain of links passes through output ${slot} of node ${execId(scope, node)}`);
    visited.add(key);
    if (node.mode === MODE_BYPASS) {
      const index = this.bypassSlot(node, slot, type);
      return index === -1 ? undefined : this.resolveInput(scope, node, index, visited);
    }
    const inside = scope.children.get(node.id);
    if (inside) {
      // SubgraphNode.resolveSubgraphOutputLink: the first link into the subgraph's output slot.
      const link = [...inside.graph.links.values()].find((l) => l.targetId === SUBGRAPH_OUTPUT_ID && l.targetSlot === slot);
      const origin = link && inside.graph.byId.get(link.originId);
      return origin ? this.resolveOutput(inside, origin, link.originSlot, type, visited) : undefined;
    }
    if (VIRTUAL_TYPES.has(node.type)) return node.inputs[slot] ? this.resolveInput(scope, node, slot, visited, type) : undefined;
    return { nodeId: execId(scope, node), slot };
  }

  /** ExecutableNodeDTO#getBypassSlotIndex: the same slot when its type fits, else the first exact, then compatible, type. */
  private bypassSlot(node: UiNode, slot: number, type: unknown): number {
    const { inputs } = node;
    if (inputs.length === 0) return -1;
    if (type === '*' || type === '') return inputs.length > slot ? slot : 0;
    const outputType = node.outputTypes[slot];
    const opposite = inputs[slot];
    if (opposite && typesConnect(opposite.type, outputType) && typesConnect(opposite.type, type)) return slot;
    const exact = inputs.findIndex((i) => i.type === type);
    if (exact !== -1) return exact;
    return inputs.findIndex((i) => typesConnect(i.type, outputType) && typesConnect(i.type, type));
  }
}
