// Following a link back to the node output that really feeds an input, as the editor's export
// does (ExecutableNodeDTO.resolveInput / resolveOutput in the ComfyUI frontend's litegraph):
// frontend-only nodes pass their input slot straight through (a Reroute), or feed nothing (a
// PrimitiveNode, whose value is written into widgets instead); a bypassed node hands over the
// input that matches the wanted type; anything else is the origin.
import { MODE_BYPASS, type UiGraph, type UiNode } from './ui-graph.js';

/** Node types the editor keeps to itself (`isVirtualNode`): never sent to the engine. */
export const VIRTUAL_TYPES = new Set(['Reroute', 'PrimitiveNode', 'Note', 'MarkdownNote']);

export interface Origin {
  nodeId: string;
  slot: number;
}

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
  constructor(private readonly graph: UiGraph) {}

  /** The origin feeding input `slot` of `node`, or undefined when nothing real feeds it. */
  resolveInput(node: UiNode, slot: number, visited = new Set<string>(), type?: unknown): Origin | undefined {
    const key = `${node.id}[I]${slot}`;
    if (visited.has(key)) throw new LinkProblem(`a circular chain of links passes through input ${slot} of node ${node.id}`);
    visited.add(key);
    const input = node.inputs[slot];
    if (!input || input.link === null) return undefined;
    const link = this.graph.links.get(input.link);
    if (!link) throw new LinkProblem(`input ${input.name} refers to link ${input.link}, which is not in the workflow's links`);
    const origin = this.graph.byId.get(link.originId);
    if (!origin) throw new LinkProblem(`input ${input.name} is linked to node ${link.originId}, which is not in the workflow`);
    return this.resolveOutput(origin, link.originSlot, type ?? input.type, visited);
  }

  private resolveOutput(node: UiNode, slot: number, type: unknown, visited: Set<string>): Origin | undefined {
    const key = `${node.id}[O]${slot}`;
    if (visited.has(key)) throw new LinkProblem(`a circular chain of links passes through output ${slot} of node ${node.id}`);
    visited.add(key);
    if (node.mode === MODE_BYPASS) {
      const index = this.bypassSlot(node, slot, type);
      return index === -1 ? undefined : this.resolveInput(node, index, visited);
    }
    if (VIRTUAL_TYPES.has(node.type)) return node.inputs[slot] ? this.resolveInput(node, slot, visited, type) : undefined;
    return { nodeId: node.id, slot };
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
