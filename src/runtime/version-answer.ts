// `wes --version` (or `-V`) alone is answered before anything else loads: by cli.ts's main, and
// in the single executable by its loader, before any module, built-in module, V8 flag or cache.
import { VERSION } from '../factory-version.js';
import { watchOutputStreams } from './output-streams.js';

export function asksForVersion(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V');
}

/** Prints `wes <version>`; a reader that has gone away or an output that fails is handled as for every command (output-streams.ts). */
export function answerVersion(): void {
  watchOutputStreams(false, () => undefined);
  process.stdout.write(`wes ${VERSION}\n`);
}
