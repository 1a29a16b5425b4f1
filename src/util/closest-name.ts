// "Did you mean": the one name a typo most likely meant, by edit distance where swapping two
// neighbouring letters counts as one edit (`widht` is one edit from `width`, `sed` from `seed`).

/** Edits (insert, delete, replace, swap of neighbours) from `a` to `b`, case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i, ...Array<number>(t.length).fill(0)]);
  for (let j = 1; j <= t.length; j++) d[0]![j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[s.length]![t.length]!;
}

/**
 * The name closest to `typed` when it is close enough to be a typo of it: at most 2 edits, and
 * fewer than half the typed name's length (so `a` is no typo of `b`); a tie gives none.
 */
export function closestName(typed: string, names: readonly string[]): string | undefined {
  const limit = Math.min(2, Math.ceil(typed.length / 2) - 1);
  let best: { name: string; distance: number } | undefined;
  let tie = false;
  for (const name of names) {
    const distance = editDistance(typed, name);
    if (distance > limit) continue;
    if (!best || distance < best.distance) {
      best = { name, distance };
      tie = false;
    } else if (distance === best.distance) tie = true;
  }
  return best && !tie ? best.name : undefined;
}
