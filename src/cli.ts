// Entry point of bin/wes.js. `--version` answers before anything else loads.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION } from './factory-version.js';
import { codeCacheDir, seaCodeCacheDir, useCodeCache } from './runtime/code-cache.js';
import { keepWasmAtBaseline } from './runtime/wasm-tiering.js';
import { isBatchInvocation, keepHeapSmall } from './runtime/batch-heap.js';
import { seaHost } from './util/sea-host.js';

/** Set by scripts/build-commonjs.mjs to a hash of the built chunks; absent when the sources run (tests). */
declare const __WES_BUILD_ID__: string | undefined;

export async function main(argv: string[]): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`wes ${VERSION}\n`);
    return 0;
  }
  keepWasmAtBaseline();
  // After the flag: V8 keys its code cache by the flags in force.
  // The single executable keeps its own (its modules are compiled from its assets, not dist/).
  const sea = seaHost();
  const cacheDir = typeof __WES_BUILD_ID__ === 'string' ? (sea ? seaCodeCacheDir(process.env, __WES_BUILD_ID__) : codeCacheDir(process.env, __WES_BUILD_ID__)) : undefined;
  if (cacheDir && sea) sea.useCodeCache(cacheDir);
  else if (cacheDir) useCodeCache(dirname(fileURLToPath(import.meta.url)), cacheDir);
  // A reader that goes away (`wes ... | head`) is not an error. Further output is dropped; if the
  // command is still working it stops as on Ctrl-C, so what keeps state (a batch's results file)
  // is written out, quietly, and the exit code says so (141, as a command stopped by SIGPIPE). A
  // finished command keeps its code.
  const readerGone = new AbortController();
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    discardWrites(process.stdout);
    readerGone.abort();
  });
  process.stderr.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    discardWrites(process.stderr);
  });
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
  });
}

function discardWrites(stream: NodeJS.WriteStream): void {
  stream.write = ((_chunk: unknown, encoding?: unknown, callback?: unknown) => {
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  }) as typeof stream.write;
}
