// Subgraphs, expanded as the editor expands them (SubgraphNode.getInnerNodes and
// ExecutableNodeDTO in the frontend's litegraph): each instance's inner nodes run under the
// execution id `<instance id>:<inner id>` (nested: `a:b:c`); a subgraph input that is linked
// outside takes that link, an unlinked one takes the instance's promoted widget value, if any.
// Where the saved instance leaves the editor's result open, the instance is refused instead.
import { MODE_BYPASS, MODE_NEVER, readUiGraph, type UiGraph, type UiNode } from './ui-graph.js';

export interface Scope {
  graph: UiGraph;
  /** Instance ids from the root down to this graph: the prefix of its nodes' execution ids. */
  path: string[];
  /** The subgraph node whose inside this graph is. */
  instance?: { node: UiNode; scope: Scope; promoted: Map<number, unknown> };
  /** Expanded instances of this graph, by node id. */
  children: Map<string, Scope>;
}

export type Problem = (node: string, classType: string, what: string) => void;

export function execId(scope: Scope, node: UiNode): string {
  return [...scope.path, node.id].join(':');
}

/** Promoted widget values by instance input index: one saved value per input that carries a widget. */
function promotedValues(node: UiNode): Map<number, unknown> | string {
  const promotedInputs = node.inputs.flatMap((input, index) => (input.widgetName !== undefined ? [index] : []));
  const values = node.widgetsValues;
  if (values === undefined || values === null) return new Map();
  if (!Array.isArray(values) || values.length !== promotedInputs.length) {
    return `widgets_values does not hold exactly one value per promoted widget (${promotedInputs.length}); re-save the workflow in a current editor`;
  }
  return new Map(promotedInputs.map((index, i) => [index, values[i]]));
}

/** Why the editor's result for this instance is not certain, or undefined when it can be expanded. */
function refusal(node: UiNode, open: Set<string>): string | undefined {
  if (node.mode === MODE_NEVER || node.mode === MODE_BYPASS) return 'a muted or bypassed subgraph: wes does not expand it; unmute it or remove it in the editor';
  if (open.has(node.type)) return 'a subgraph that contains itself';
  const proxies = node.properties.proxyWidgets;
  if (Array.isArray(proxies) && proxies.length > 0) return 'a subgraph with widgets promoted by proxyWidgets: wes does not expand it; unpack it in the editor (or use its Export (API))';
  return undefined;
}

/** The root scope, with every subgraph instance expanded or refused (a problem naming the instance). */
export function buildScopes(root: UiGraph, problem: Problem): Scope {
  const expand = (graph: UiGraph, path: string[], instance: Scope['instance'], open: Set<string>): Scope => {
    const scope: Scope = { graph, path, instance, children: new Map() };
    for (const node of graph.nodes) {
      const definition = root.subgraphs.get(node.type);
      if (!definition) continue;
      const id = execId(scope, node);
      const why = refusal(node, open);
      const promoted = why ? undefined : promotedValues(node);
      if (why || typeof promoted === 'string' || promoted === undefined) {
        problem(id, node.type, why ?? (promoted as string));
        continue;
      }
      const inner = readUiGraph(definition, (n, c, w) => problem(`${id}:${n}`, c, w));
      inner.subgraphs = root.subgraphs;
      scope.children.set(node.id, expand(inner, [...path, node.id], { node, scope, promoted }, new Set([...open, node.type])));
    }
    return scope;
  };
  return expand(root, [], undefined, new Set());
}

/** Every node with its scope in the order the editor builds its execution map: each instance followed by its inner nodes, in saved order. */
export function flatten(scope: Scope, order: UiNode[]): { scope: Scope; node: UiNode }[] {
  const out: { scope: Scope; node: UiNode }[] = [];
  for (const node of order) {
    out.push({ scope, node });
    const child = scope.children.get(node.id);
    if (child) out.push(...flatten(child, child.graph.nodes));
  }
  return out;
}
