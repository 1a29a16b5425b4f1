// Dependency order of a workflow and the nodes that sit on a cycle.

/** A link input: ["<node id>", <output index>]. */
export function isLink(value: unknown): value is [string, number] {
  return Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && Number.isInteger(value[1]);
}

/** Nodes on a dependency cycle (strongly connected components of 2+ nodes, or a self-link). */
export function nodesOnCycles(deps: Map<string, string[]>): Set<string> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const result = new Set<string>();
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of deps.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (deps.get(node) ?? []).includes(node)) component.forEach((n) => result.add(n));
    }
  };
  for (const node of deps.keys()) if (!index.has(node)) visit(node);
  return result;
}

/** Kahn's order, ties broken by workflow order. Assumes no cycle. */
export function dependencyOrder(deps: Map<string, string[]>): string[] {
  const remaining = new Map<string, number>();
  const users = new Map<string, string[]>();
  for (const [node, needs] of deps) {
    const unique = [...new Set(needs)];
    remaining.set(node, unique.length);
    for (const need of unique) users.set(need, [...(users.get(need) ?? []), node]);
  }
  const position = new Map([...deps.keys()].map((node, i) => [node, i]));
  const ready = [...deps.keys()].filter((n) => remaining.get(n) === 0);
  const order: string[] = [];
  while (ready.length > 0) {
    // The earliest node in workflow order among those ready runs next.
    ready.sort((a, b) => position.get(a)! - position.get(b)!);
    const node = ready.shift()!;
    order.push(node);
    for (const user of users.get(node) ?? []) {
      const left = remaining.get(user)! - 1;
      remaining.set(user, left);
      if (left === 0) ready.push(user);
    }
  }
  return order;
}
