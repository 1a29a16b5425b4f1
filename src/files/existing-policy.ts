// The --clobber / --skip-existing choice as a policy, on its own: a command that only needs the
// choice (models run) does not load the hashing and part-file code of files/existing.ts.
export type ExistingPolicy = 'refuse' | 'clobber' | 'skip';

/**
 * The policy from a command's --clobber / --skip-existing flags. Giving both is refused where they
 * are declared (existingFileOptions: commander's conflicts), before any command runs.
 */
export function existingPolicy(opts: { clobber?: boolean; skipExisting?: boolean }): ExistingPolicy {
  return opts.clobber === true ? 'clobber' : opts.skipExisting === true ? 'skip' : 'refuse';
}
