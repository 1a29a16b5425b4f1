// Entry point of bin/wes.js. `--version` answers before anything else loads.
import { VERSION } from './factory-version.js';

export async function main(argv: string[]): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`wes ${VERSION}\n`);
    return 0;
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
