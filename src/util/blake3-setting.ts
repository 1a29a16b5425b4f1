// Where WES_BLAKE3 is read from (util/blake3.ts): the environment the program was given, set by
// the Factory. Apart from blake3.ts so that setting it loads none of the hashing code, which a
// command that hashes nothing (`jobs get`) never needs.
let settingsEnv: NodeJS.ProcessEnv | undefined;

/** Reads WES_BLAKE3 from `env` from now on (undefined: the process's own environment). */
export function readBlake3SettingFrom(env: NodeJS.ProcessEnv | undefined): void {
  settingsEnv = env;
}

/** The environment WES_BLAKE3 is read from. */
export function blake3SettingEnv(): NodeJS.ProcessEnv {
  return settingsEnv ?? process.env;
}
