// The nodes of a workflow that sit on a dependency cycle (for the client's local validation and the
// dev-server's alike): strongly connected components of two or
// more nodes, or a node linked to itself (Tarjan's algorithm, iterative so a loop tens of
// thousands of nodes long does not exhaust the call stack).

/** `deps`: each node's linked inputs' origins. Returns the nodes on a cycle, in discovery order. */
export function nodesOnCycles(deps: ReadonlyMap<string, readonly string[]>): Set<string> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const result = new Set<string>();
  let counter = 0;
  const enter = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
  };
  for (const root of deps.keys()) {
    if (index.has(root)) continue;
    enter(root);
    // Each frame: a node and how many of its origins have been looked at.
    const frames: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    while (frames.length) {
      const frame = frames[frames.length - 1]!;
      const origins = deps.get(frame.node) ?? [];
      if (frame.next < origins.length) {
        const origin = origins[frame.next++]!;
        if (!index.has(origin)) {
          enter(origin);
          frames.push({ node: origin, next: 0 });
        } else if (onStack.has(origin)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(origin)!));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || origins.includes(frame.node)) for (const n of component.reverse()) result.add(n);
    }
  }
  return result;
}
