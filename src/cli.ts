// Entry point of bin/wes.js. `--version` answers before anything else loads.
import { setFlagsFromString } from 'node:v8';
import { VERSION } from './factory-version.js';

export async function main(argv: string[]): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`wes ${VERSION}\n`);
    return 0;
  }
  // A short command used to wait ~35 ms at exit for V8 to finish optimising undici's WASM HTTP
  // parser (tier-up runs in the background and exit waits for it). A larger tier-up budget keeps
  // one small response from triggering it, while long work (blake3 over a download) still tiers
  // up within its first megabytes. Measured: `jobs get` 158 -> 124 ms, blake3 1040 -> 1023 MB/s.
  setFlagsFromString('--wasm-tiering-budget=20000000');
  // A reader that stops early (`wes ... | head`) is not an error: stop writing and exit quietly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
      throw err;
    });
  }
  const { runProgram } = await import('./program.js');
  return runProgram({
    argv,
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    columns: process.stdout.columns ?? process.stderr.columns,
  });
}
