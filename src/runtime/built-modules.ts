// How the npm build's CLI loads its own modules (dist/cli.js and dist/chunks/): much as the single
// executable's loader does (src/runtime/sea-loader.ts), not through all of Node's CommonJS path.
// For each of the ~28 modules a command loads, Node's resolution stats the candidate files and
// realpaths the result, and its `.js` loader looks up the package scope and reads the file into a
// fresh buffer; the wrapper was then joined to the text, which V8 flattens into a second copy.
// Here a relative require of a `.js` file from one of these modules is joined as text (esbuild
// writes every such path itself, and the files are the build's), and the file is read between the
// wrapper's two halves into the buffer the code cache's files are read into too (start-reads.ts),
// so it is decoded once into the text V8 compiles.
// `jobs get --json` under callgrind: 238.5 M instructions and 4 250 page faults before, 218.1 M
// and 3 760 after (node -e 0: 82.8 M; bench/RESULTS.md).
// Anything else (Node's built-in modules, dependencies outside dist/, `../`, a file that is not
// `.js`) takes Node's own path, and so does every module of the library entry (dist/index.js),
// which never calls this.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { sep } from 'node:path';
import type { Script } from 'node:vm';
import { readIntoStartBuffer } from './start-reads.js';

/** Compiles a module's wrapped text (`name`: its path under the root, '/' as '-'). */
export type CompileModule = (wrapped: string, filename: string, name: string) => Script;

/** The part of a CommonJS module this loader fills in. */
interface LoadingModule {
  exports: unknown;
  filename: string;
  path: string;
  require(id: string): unknown;
}

/** The parts of node:module this hooks, as v8-compile-cache and pirates do. */
interface ModuleInternals {
  _resolveFilename(this: unknown, request: string, parent: LoadingModule | undefined, isMain: boolean, options?: unknown): string;
  _extensions: Record<string, (this: unknown, module: LoadingModule, filename: string) => void>;
  _cache: Record<string, unknown>;
  wrap(text: string): string;
}

type ModuleFunction = (this: unknown, exports: unknown, require: NodeJS.Require, module: LoadingModule, filename: string, dirname: string) => void;

/** `./name.js`, `./folder/name.js`: a path esbuild writes, without `.` or `..` segments. */
const PLAIN_RELATIVE = /^\.\/(?:[^./][^/]*\/)*[^./][^/]*$/;

/**
 * `spec` (`./a/b.js`) joined to the folder `dir` as text with `separator`, or undefined when it is
 * not that plain form. Text, not path.join: ~130 calls of it at each start made V8 optimise Node's
 * normalizeString (5.7 ms of TurboFan on a second core, 0.7 ms on the main thread; bench/RESULTS.md).
 */
export function joinPlainRelative(dir: string, spec: string, separator: string): string | undefined {
  if (!PLAIN_RELATIVE.test(spec)) return undefined;
  const rest = separator === '/' ? spec.slice(2) : spec.slice(2).split('/').join(separator);
  return dir === '.' ? rest : `${dir}${separator}${rest}`;
}

/** From now on, the modules under `root` are resolved, read and compiled (with `compile`) as said above. */
export function loadBuiltModules(root: string, compile: CompileModule): void {
  const Module = process.getBuiltinModule('node:module') as unknown as ModuleInternals;
  const { isAscii } = process.getBuiltinModule('node:buffer');
  const inRoot = root.endsWith(sep) ? root : root + sep;
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, parent, isMain, options) {
    const from = parent?.filename;
    if (typeof from === 'string' && from.startsWith(inRoot) && request.endsWith('.js')) {
      const file = joinPlainRelative(parent!.path, request, sep);
      if (file !== undefined) return file;
    }
    return resolve.call(this, request, parent, isMain, options);
  };
  const loadJs = Module._extensions['.js']!;
  const [before, after] = Module.wrap('\0').split('\0') as [string, string];
  Module._extensions['.js'] = function (module, filename) {
    if (!filename.startsWith(inRoot)) return loadJs.call(this, module, filename);
    const text = wrappedText(filename, before, after);
    const script = compile(text.toString(isAscii(text) ? 'latin1' : 'utf8'), filename, filename.slice(inRoot.length).split(sep).join('-'));
    const fn = script.runInThisContext({ displayErrors: true }) as ModuleFunction;
    fn.call(module.exports, module.exports, requireOf(Module, module), module, filename, module.path);
  };
}

/** The `require` a module gets, as Node makes it (makeRequireFunction). */
function requireOf(Module: ModuleInternals, module: LoadingModule): NodeJS.Require {
  const require = ((id: string) => module.require(id)) as NodeJS.Require;
  require.resolve = Object.assign((request: string, options?: unknown) => Module._resolveFilename(request, module, false, options), { paths: () => null }) as NodeJS.RequireResolve;
  require.main = process.mainModule;
  require.extensions = Module._extensions as unknown as NodeJS.Require['extensions'];
  require.cache = Module._cache as NodeJS.Require['cache'];
  return require;
}

/** The file's bytes between the wrapper's halves, in the start buffer (start-reads.ts). A missing file fails as Node's loader would. */
function wrappedText(filename: string, before: string, after: string): Buffer {
  let fd: number;
  try {
    fd = openSync(filename, 'r');
  } catch (error) {
    throw Object.assign(new Error(`Cannot find module '${filename}'`), { code: 'MODULE_NOT_FOUND', cause: error });
  }
  try {
    const { bytes, end } = readIntoStartBuffer(fd, fstatSync(fd).size, before.length, after.length);
    bytes.write(before, 0, 'latin1');
    return bytes.subarray(0, end + bytes.write(after, end, 'latin1'));
  } finally {
    closeSync(fd);
  }
}
