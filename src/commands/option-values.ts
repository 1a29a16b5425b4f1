import { flag, type OptionsDeclaration, type OptionsRule } from './typed-options.js';

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

/** `-o -` writes to standard output: there is no file there for --clobber or --skip-existing to decide about. */
export function noFileFlagsWithStdout<O extends ExistingFileOptions & { output?: string }>(): OptionsRule<O> {
  return ({ opts, given, flag }) => {
    const fileFlag = (['clobber', 'skipExisting'] as const).find((key) => given(key));
    return opts.output === '-' && fileFlag ? `${flag(fileFlag)} decides about an existing file; -o - writes to standard output` : undefined;
  };
}
