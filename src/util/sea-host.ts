// What the running program knows of how it was built: the npm package (bin/wes.js and dist/), or
// the single executable (`npm run build:sea`), whose loader (src/runtime/sea-loader.ts) sets a
// SeaHost on the global object before any of wes's modules runs. The few places that differ ask
// here: the code cache, where native blake3 is loaded from, how wes starts itself again, doctor.

/** What the single executable's loader offers the program. */
export interface SeaHost {
  /** The program's modules (with a snapshot build, those not in its snapshot) are compiled with V8's code cache kept in `dir`, for `command` (code-cache.ts, commandKey). */
  useCodeCache(dir: string, command: string): void;
  /** The path of a file embedded in the executable, written once into wes's cache folder; undefined when it cannot be. */
  assetFile(name: string): string | undefined;
  /** The embedded native blake3 addon's asset name, when the build platform had one. */
  readonly nativeBlake3: string | undefined;
}

const HOST = Symbol.for('wes.sea-host');

export function seaHost(): SeaHost | undefined {
  return (globalThis as Record<symbol, SeaHost | undefined>)[HOST];
}

/** Called once by the executable's loader, before the program's first module runs. */
export function setSeaHost(host: SeaHost): void {
  (globalThis as Record<symbol, SeaHost | undefined>)[HOST] = host;
}

export type BuildKind = 'npm' | 'sea';

export function buildKind(): BuildKind {
  return seaHost() ? 'sea' : 'npm';
}

/** The command that runs this wes again (`[program, ...arguments before wes's own]`), or undefined when there is none. */
export function selfCommand(npmBin: () => string | undefined): string[] | undefined {
  if (seaHost()) return [process.execPath];
  const bin = npmBin();
  return bin ? [process.execPath, bin] : undefined;
}
