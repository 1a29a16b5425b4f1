declare const __WES_VERSION__: string;
/** Injected by the build (package.json version); the dev fallback serves vitest runs of the sources. */
export const VERSION: string = typeof __WES_VERSION__ === 'string' ? __WES_VERSION__ : '0.0.0-dev';

/** `wes --version` or `wes -V` alone: answered before anything else loads (cli.ts, and the single executable's loader). */
export function asksForVersion(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V');
}
