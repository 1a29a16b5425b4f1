// `wes --version` (or `-V`) alone is answered before anything else loads: by cli.ts's main, and
// in the single executable by its loader, before any module, built-in module, V8 flag or cache.
import { VERSION } from '../factory-version.js';

export function asksForVersion(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V');
}

/**
 * Prints `wes <version>`. A reader that has gone away (`wes --version | true`) is no error, as for
 * every command (cli.ts): the answer is dropped and the exit code stays 0.
 */
export function answerVersion(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
  process.stdout.write(`wes ${VERSION}\n`);
}
