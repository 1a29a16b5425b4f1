/** Commander accumulator for a repeatable option; no default, so help shows none. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
