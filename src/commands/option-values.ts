/** Commander accumulator for a repeatable option; no default, so help shows none. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** --clobber and --skip-existing, on every command that saves files (see files/existing.ts). */
export function existingFileFlags<C extends { option(flags: string, description: string): C }>(cmd: C): C {
  return cmd
    .option('--clobber', 'replace an existing file that holds other bytes (default: stop, exit 1)')
    .option('--skip-existing', 'keep an existing file as it is (one with the same bytes is always kept, with no transfer)');
}
