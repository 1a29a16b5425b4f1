import { flag, type OptionsDeclaration } from './typed-options.js';

/** Commander accumulator for a repeatable option; no default, so help shows none. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The two flags of a command that saves files (typed; see src/commands/typed-options.ts). */
export interface ExistingFileOptions {
  clobber?: boolean;
  skipExisting?: boolean;
}

/** --clobber and --skip-existing declared with their type; giving both is a usage error. */
export const existingFileOptions = (): OptionsDeclaration<ExistingFileOptions> => ({
  clobber: flag('--clobber', 'replace an existing file that holds other bytes (default: stop, exit 1)'),
  skipExisting: flag('--skip-existing', 'keep an existing file as it is (one with the same bytes is always kept, with no transfer)').conflicts('clobber'),
});

/** --clobber and --skip-existing, on every command that saves files (see files/existing.ts). */
export function existingFileFlags<C extends { option(flags: string, description: string): C }>(cmd: C): C {
  return cmd
    .option('--clobber', 'replace an existing file that holds other bytes (default: stop, exit 1)')
    .option('--skip-existing', 'keep an existing file as it is (one with the same bytes is always kept, with no transfer)');
}
