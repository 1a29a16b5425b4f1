// Entry point of bin/wes.js. `--version` answers before anything else loads.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeCacheDir, commandKey, seaCodeCacheDir, useCodeCache } from './runtime/code-cache.js';
import { setV8Flags } from './runtime/v8-flags.js';
import { answerVersion, asksForVersion } from './runtime/version-answer.js';
import { outputFailureHandled, watchOutputStreams } from './runtime/output-streams.js';
import { startUnderV8Flags } from './runtime/command-builtins.js';
import { isBatchInvocation, keepHeapSmall } from './runtime/batch-heap.js';
import { seaHost } from './util/sea-host.js';

/**
 * The built-in modules every command loads (the code cache's compiler, undici's): before the flag,
 * `jobs get` took 283 M instructions instead of 293 M and `--help` 198 M instead of 210 M
 * (callgrind). Not node:fs/promises, which `jobs get` does without (start-up-without-fs-promises.test.ts).
 */
const START_BUILTINS = ['node:vm', 'node:module', 'node:diagnostics_channel', 'node:net'];

/** Set by scripts/build-commonjs.mjs to a hash of the built chunks; absent when the sources run (tests). */
declare const __WES_BUILD_ID__: string | undefined;

export async function main(argv: string[]): Promise<number> {
  if (asksForVersion(argv)) {
    answerVersion();
    return 0;
  }
  const sea = seaHost();
  // The single executable keeps its own code cache (its modules are compiled from its assets, not dist/).
  const cacheDir = typeof __WES_BUILD_ID__ === 'string' ? (sea ? seaCodeCacheDir(process.env, __WES_BUILD_ID__) : codeCacheDir(process.env, __WES_BUILD_ID__)) : undefined;
  const command = commandKey(argv);
  if (sea) {
    // Its loader has started so already (sea-loader.ts); one built with a start-up snapshot leaves
    // the flags and the code cache to here (setting them again changes nothing).
    setV8Flags();
    if (cacheDir) sea.useCodeCache(cacheDir, command);
  } else {
    startUnderV8Flags(START_BUILTINS, cacheDir, command, (dir) => useCodeCache(dirname(fileURLToPath(import.meta.url)), dir, command));
  }
  // A reader that goes away stops a command still working as on Ctrl-C (141); any other failure
  // to write the output stops it too, said, with exit 1 (output-streams.ts, program.ts).
  const readerGone = new AbortController();
  const jsonErrors = argv.some((a) => a === '--json' || a === '--jq' || a.startsWith('--jq='));
  watchOutputStreams(jsonErrors, (failure) => readerGone.abort(failure));
  const { runProgram } = await import('./program.js');
  // A batch's heap tuning, for this process only: the command itself changes no process-wide state.
  if (isBatchInvocation(argv)) keepHeapSmall();
  return runProgram({
    argv,
    env: process.env,
    stdin: () => process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    columns: process.stdout.columns ?? process.stderr.columns,
    readerGone: readerGone.signal,
    outputFailureHandled,
  });
}

/**
 * Ends the process once it has nothing left to do, skipping Node's teardown of the V8 heap, which
 * unmaps it page by page (the executable's `jobs get` ended 7.7 ms sooner in paired runs;
 * bench/RESULTS.md).
 * The process's entry calls it when main has resolved (bin/wes.js, src/runtime/sea-loader.ts):
 * 'beforeExit' comes when no timer, socket, pending write or child process is left, where Node
 * would begin that teardown; 'exit' listeners (the code cache's save) still run.
 */
export function exitWhenIdle(): void {
  process.once('beforeExit', () => process.exit());
}
