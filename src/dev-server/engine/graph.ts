// Dependency order of a workflow (the nodes on a cycle: util/dependency-cycles.ts).

/** A link input: ["<node id>", <output index>]. */
export function isLink(value: unknown): value is [string, number] {
  return Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && Number.isInteger(value[1]);
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
