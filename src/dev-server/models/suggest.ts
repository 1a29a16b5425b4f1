// "Did you mean": the catalog ids closest to an unknown id by edit distance.

/** Levenshtein distance, giving up (returning bound + 1) once it must exceed `bound`. */
export function editDistance(a: string, b: string, bound = Infinity): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > bound) return bound + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/** Up to `count` ids within a distance of about half the wanted id's length, nearest first. */
export function suggestIds(wanted: string, ids: Iterable<string>, count = 3): string[] {
  const limit = Math.max(3, Math.floor(wanted.length / 2));
  const best: Array<{ id: string; distance: number }> = [];
  for (const id of ids) {
    const bound = best.length === count ? best[count - 1]!.distance : limit;
    const distance = editDistance(wanted, id, bound);
    if (distance > bound || (best.length === count && distance === bound)) continue;
    best.push({ id, distance });
    best.sort((x, y) => x.distance - y.distance || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
    if (best.length > count) best.pop();
  }
  return best.map((b) => b.id);
}
