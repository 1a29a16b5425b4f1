import { checked, flag, needs, type OptionsDeclaration, type OptionsRule } from './typed-options.js';

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

/** --clobber and --skip-existing decide about the files `savers` (the flags that save files) write: alone they mean nothing. */
export function existingFileRules<O extends ExistingFileOptions>(...savers: Array<keyof O>): Array<OptionsRule<O>> {
  return [needs<O>('clobber', ...savers), needs<O>('skipExisting', ...savers)];
}

/** `-o -` writes to standard output: there is no file there for --clobber or --skip-existing to decide about. */
export function noFileFlagsWithStdout<O extends ExistingFileOptions & { output?: string }>(): OptionsRule<O> {
  return ({ opts, given, flag }) => {
    const fileFlag = (['clobber', 'skipExisting'] as const).find((key) => given(key));
    return opts.output === '-' && fileFlag ? `${flag(fileFlag)} decides about an existing file; -o - writes to standard output` : undefined;
  };
}

/**
 * --idempotency-key (jobs submit, models run): as the maker publishes the header, 1-255 printable
 * ASCII characters (spec/router-openapi.yaml, RouterIdempotencyKey). Refused here rather than by
 * the server: a key the HTTP layer cannot send, or one a server refuses, looked like a dropped
 * connection that "may have gone through".
 */
export const IDEMPOTENCY_KEY_MAX = 255;
export const idempotencyKey = checked((raw) =>
  raw.trim() === '' || raw.length > IDEMPOTENCY_KEY_MAX || /[^\x20-\x7e]/.test(raw)
    ? `it must be 1-${IDEMPOTENCY_KEY_MAX} printable ASCII characters (no control characters, nothing past ~; this one ${raw.trim() === '' ? 'is empty' : raw.length > IDEMPOTENCY_KEY_MAX ? `has ${raw.length}` : 'has others'}), e.g. --idempotency-key job-42`
    : undefined,
);
