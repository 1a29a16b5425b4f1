// The module system of the single executable. scripts/build-sea.mjs writes one script (Node's
// SEA entry) holding this loader; the modules of dist/ are embedded in one asset, each already in
// the function wrapper it is compiled in. A module is read from there when first required and
// compiled with V8's code cache (src/runtime/code-cache.ts), as the npm build's chunks are.
//
// By default the executable has no start-up snapshot of its own (scripts/build-sea.mjs, SNAPSHOT:
// Node copies such a snapshot into memory at every start). The loader then loads the built-in
// modules every command needs and those this command loaded before (command-builtins.ts), sets the
// program's V8 flags and the code cache, and runs main: so every module, cli.js included, comes
// with its cached code (startWithoutSnapshot).
//
// Built as the snapshot variant (scripts/build-sea.mjs, SNAPSHOT), the entry also holds the modules
// wes needs before argv is read as functions; while the snapshot is built the loader runs them, so
// their state is in V8's start-up snapshot, and at start the program's main runs from it. What a
// snapshot may not capture is refused while it is built (watchHazards): a module that reads the
// environment, the home or temp folder, the working folder or the clock as it loads would keep the
// build machine's values. Such a module is left out of the preload, or made lazy.
import { join, posix } from 'node:path';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { makeFoldersSync } from '../util/make-folders.js';
import { tmpdir } from 'node:os';
import { cachedCompiler, cacheRoot, commandKey, folderState, seaCodeCacheDir, writePrivate, type CachedCompile } from './code-cache.js';
import { startUnderV8Flags } from './command-builtins.js';
import { joinPlainRelative } from './built-modules.js';
import { setSeaHost, type SeaHost } from '../util/sea-host.js';
import { answerVersion, asksForVersion } from './version-answer.js';

type ModuleFunction = (this: unknown, exports: unknown, require: SeaRequire, module: SeaModule, filename: string, dirname: string) => unknown;
interface SeaModule {
  exports: unknown;
}
interface SeaRequire {
  (spec: string): unknown;
  resolve(spec: string): string;
}

/** What the generated entry passes in (scripts/build-sea.mjs). */
export interface SeaBundle {
  /** Modules whose code is in the entry, by their path in dist/ ('cli.js', 'chunks/x.js'). */
  inline: Record<string, ModuleFunction>;
  /** The other modules of dist/, each in its function wrapper: where its bytes are in the asset `pack` (offset, length). */
  modules: Record<string, [number, number]>;
  /** The asset holding them. */
  pack: string;
  /** Those of them whose text is ASCII alone. */
  ascii: string[];
  /** Other embedded files (undici's WebAssembly, the native blake3 addon): asset name → byte count. */
  files: Record<string, number>;
  /** The asset name of the native blake3 addon, when the build platform had one. */
  nativeBlake3?: string;
  /** dist/'s build id (scripts/build-commonjs.mjs): names the code cache and asset folders. */
  buildId: string;
  /** Whether the executable starts from a snapshot of its own (scripts/build-sea.mjs, SNAPSHOT). */
  snapshot: boolean;
  /** Modules run while the snapshot is built, in order (none without a snapshot). */
  preload: string[];
  /** Built-in modules loaded before the others (Node warns as they load, and its warning reads the environment). */
  reviewedBuiltins: string[];
  /** Built-in modules loaded first: into the snapshot, or before the program's V8 flags are set (scripts/build-sea.mjs, START_BUILTINS). */
  startBuiltins: string[];
  /** The entry's `require`: Node's built-in modules while the snapshot is built. */
  builtin: (name: string) => unknown;
}

/** Where the modules say they are (stack traces, import.meta.url): no file of the machine. */
const ROOT = '/wes-sea/';
/** ws's optional native add-ons: absent, as when npm did not install them. */
const ABSENT = new Set(['bufferutil', 'utf-8-validate']);

export function start(bundle: SeaBundle): void {
  if (!bundle.snapshot) return startWithoutSnapshot(bundle);
  const v8 = bundle.builtin('node:v8') as typeof import('node:v8');
  const loader = new Loader(bundle, v8.startupSnapshot.isBuildingSnapshot());
  setSeaHost(loader.host);
  for (const name of [...bundle.reviewedBuiltins, ...bundle.startBuiltins]) bundle.builtin(name);
  const stop = watchHazards(bundle.builtin, () => loader.loading.at(-1) ?? 'no module');
  for (const name of bundle.preload) loader.load(name);
  const hazards = stop();
  if (hazards.length > 0) throw new Error(`modules read what a snapshot would freeze as they load:\n  ${[...new Set(hazards)].join('\n  ')}`);
  loader.building = false;
  v8.startupSnapshot.setDeserializeMainFunction(() => runMain(loader));
}

/**
 * Node's code cache of its built-in modules is keyed by V8's flags, as wes's is: the built-in
 * modules every command needs are loaded before the program's flags are set (one loaded after is
 * compiled from source), and the flag and the code cache are set before cli.js loads, so that
 * cli.js and what it imports come with their cached code too (cli.ts sets both again: no change).
 */
function startWithoutSnapshot(bundle: SeaBundle): void {
  const argv = process.argv.slice(2);
  // As in cli.ts, the version is answered first: here before any module, built-in module, flag or
  // cache (`--version` took 23.7 ms against `node -e 0`'s 19.8 ms when it loaded cli.js first).
  if (asksForVersion(argv)) return answerVersion();
  const loader = new Loader(bundle, false);
  setSeaHost(loader.host);
  const command = commandKey(argv);
  startUnderV8Flags(bundle.startBuiltins, seaCodeCacheDir(process.env, bundle.buildId), command, (dir) => loader.host.useCodeCache(dir, command));
  runMain(loader);
}

function runMain(loader: Loader): void {
  const cli = loader.load('cli.js') as { main(argv: string[]): Promise<number>; exitWhenIdle(): void };
  void cli.main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
    cli.exitWhenIdle();
  });
}

class Loader {
  private readonly cache = new Map<string, SeaModule>();
  /** The modules being loaded, innermost last. */
  readonly loading: string[] = [];
  private readonly ascii: Set<string>;
  /** The asset of the modules, once read (a view of the executable's bytes, not a copy). */
  private packed: ArrayBuffer | undefined;
  private compileCached: CachedCompile | undefined;
  private readonly extracted = new Map<string, string | undefined>();
  readonly host: SeaHost;

  constructor(
    private readonly bundle: SeaBundle,
    public building: boolean,
  ) {
    this.ascii = new Set(bundle.ascii);
    this.host = {
      useCodeCache: (dir, command) => {
        this.compileCached ??= cachedCompiler(dir, command);
      },
      assetFile: (name) => this.assetFile(name),
      nativeBlake3: bundle.nativeBlake3,
    };
  }

  load(name: string): unknown {
    const known = this.cache.get(name);
    if (known) return known.exports;
    const fn = this.bundle.inline[name] ?? this.compile(name);
    const module: SeaModule = { exports: {} };
    this.cache.set(name, module);
    const filename = ROOT + name;
    this.loading.push(name);
    try {
      fn.call(module.exports, module.exports, this.requireFrom(name), module, filename, posix.dirname(filename));
    } finally {
      this.loading.pop();
    }
    return module.exports;
  }

  private compile(name: string): ModuleFunction {
    if (!Object.hasOwn(this.bundle.modules, name)) throw notFound(name);
    const [offset, length] = this.bundle.modules[name]!;
    this.packed ??= this.sea().getRawAsset(this.bundle.pack) as ArrayBuffer;
    // Buffer's decoders, not getAsset's TextDecoder (ICU): it made a two-byte string of every module
    // and was ~5 % of `jobs get`'s instructions; a module of ASCII bytes alone is copied as Latin-1.
    const wrapped = Buffer.from(this.packed, offset, length).toString(this.ascii.has(name) ? 'latin1' : 'utf8');
    const filename = ROOT + name;
    const script = this.compileCached ? this.compileCached(wrapped, filename, name.replaceAll('/', '-')) : new (this.builtin('node:vm') as typeof import('node:vm')).Script(wrapped, { filename });
    return script.runInThisContext({ displayErrors: true }) as ModuleFunction;
  }

  /** A relative require's module name, from the requiring module's folder (a plain `./x` as text: joinPlainRelative). */
  private resolve(dir: string, spec: string): string {
    return joinPlainRelative(dir, spec, '/') ?? posix.join(dir, spec);
  }

  private requireFrom(from: string): SeaRequire {
    const dir = posix.dirname(from);
    const require = ((spec: string) => {
      if (spec.startsWith('./') || spec.startsWith('../')) return this.load(this.resolve(dir, spec));
      if (ABSENT.has(spec)) throw notFound(spec);
      return this.builtin(spec);
    }) as SeaRequire;
    require.resolve = (spec: string) => {
      const name = this.resolve(dir, spec);
      const file = name in this.bundle.files ? this.assetFile(name) : undefined;
      if (!file) throw notFound(spec);
      return file;
    };
    return require;
  }

  /** Node's built-in modules: through the entry's `require` while building (it warns of modules a snapshot may not hold), else as the program would. */
  private builtin(spec: string): unknown {
    if (this.building) return this.bundle.builtin(spec);
    const mod = process.getBuiltinModule(spec);
    if (mod === undefined) throw notFound(spec);
    return mod;
  }

  private sea(): typeof import('node:sea') {
    return this.builtin('node:sea') as typeof import('node:sea');
  }

  /**
   * An embedded file as a file on disk (a native addon can only be loaded from one), written once
   * into the cache folder of this build (private, as the code cache is); a later start finds it
   * there. Where that folder cannot be used, a private temporary folder of this process.
   */
  private assetFile(name: string): string | undefined {
    if (!this.extracted.has(name)) this.extracted.set(name, this.extract(name));
    return this.extracted.get(name);
  }

  private extract(name: string): string | undefined {
    const size = this.bundle.files[name];
    if (size === undefined) return undefined;
    const base = name.replaceAll('/', '-');
    const dir = join(cacheRoot(process.env), 'sea', this.bundle.buildId);
    try {
      const state = folderState(dir);
      if (state === 'private' && statSync(join(dir, base), { throwIfNoEntry: false })?.size === size) return join(dir, base);
      if (state === 'foreign') throw new Error('not private');
      makeFoldersSync(dir, 0o700);
      writePrivate(join(dir, base), new Uint8Array(this.sea().getAsset(name)));
      return join(dir, base);
    } catch {
      try {
        const temp = mkdtempSync(join(tmpdir(), 'wes-sea-'));
        process.once('exit', () => rmSync(temp, { recursive: true, force: true }));
        writePrivate(join(temp, base), new Uint8Array(this.sea().getAsset(name)));
        return join(temp, base);
      } catch {
        return undefined;
      }
    }
  }
}

function notFound(spec: string): Error {
  return Object.assign(new Error(`Cannot find module '${spec}' in the wes executable`), { code: 'MODULE_NOT_FOUND' });
}

/**
 * Records, until the returned function is called, every read that would freeze a value of the
 * build machine into the snapshot: an environment variable, the home, temp or working folder, the
 * user, the host name, the clock. Returns what was read and by which module.
 */
function watchHazards(builtin: (name: string) => unknown, loading: () => string): () => string[] {
  const found: string[] = [];
  let on = true;
  // The reading frame (none when the read is made while a stack trace is formatted).
  const where = () => (new Error().stack ?? '').split('\n')[4]?.trim() ?? 'while formatting a stack trace';
  const note = (what: string) => {
    if (!on) return;
    on = false; // making the stack reads the environment too (Node's colours of stack traces)
    found.push(`${what} while ${loading()} loaded (${where()})`);
    on = true;
  };
  const env = process.env;
  // Modules that keep a reference to process.env keep this proxy, which reads the real one.
  process.env = new Proxy(env, {
    get: (target, key) => (typeof key === 'string' && note(`process.env.${key}`), Reflect.get(target, key)),
    has: (target, key) => (typeof key === 'string' && note(`'${key}' in process.env`), Reflect.has(target, key)),
    ownKeys: (target) => (note('the keys of process.env'), Reflect.ownKeys(target)),
  });
  const os = builtin('node:os') as Record<string, unknown>;
  const patched: Array<[Record<string, unknown>, string, unknown]> = [];
  const watch = (obj: Record<string, unknown>, key: string, label: string) => {
    const original = obj[key] as (...args: unknown[]) => unknown;
    patched.push([obj, key, original]);
    obj[key] = function (this: unknown, ...args: unknown[]) {
      note(label);
      return original.apply(this, args);
    };
  };
  for (const key of ['homedir', 'tmpdir', 'userInfo', 'hostname']) watch(os, key, `os.${key}()`);
  watch(process as unknown as Record<string, unknown>, 'cwd', 'process.cwd()');
  watch(Date as unknown as Record<string, unknown>, 'now', 'Date.now()');
  return () => {
    on = false;
    for (const [obj, key, original] of patched) obj[key] = original;
    process.env = env;
    return found;
  };
}
