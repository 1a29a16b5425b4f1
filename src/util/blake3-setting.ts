// What the environment says of hashing and of writing downloads: WES_BLAKE3=wasm forces the WASM
// blake3 (util/blake3.ts), WES_PART_THREAD=0/1 forces a download's part thread off or on
// (files/part-thread.ts). Read once from the environment a run was given (the Factory's
// `hashing()`, the library's env) and passed down to each hash and save, so two runs in one
// process (tests, an in-process dev-server) each keep their own. Apart from blake3.ts so that
// reading it loads none of the hashing code, which a command that hashes nothing never needs.

export interface HashSetting {
  /** WES_BLAKE3=wasm: the WASM implementation even where the native binding loads. */
  readonly forceWasm: boolean;
  /** WES_PART_THREAD: `0` or `1`, else unset (decided per transfer). */
  readonly partThread: '0' | '1' | undefined;
}

export function hashSettingFrom(env: NodeJS.ProcessEnv): HashSetting {
  const thread = env.WES_PART_THREAD;
  return { forceWasm: env.WES_BLAKE3 === 'wasm', partThread: thread === '0' || thread === '1' ? thread : undefined };
}
