// esbuild plugins of scripts/build.mjs, in their own module so tests can bundle with them.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const require = createRequire(import.meta.url);

// Module substitutions: what dependencies load at start-up but wes never uses, loaded only when
// used, so every command that makes a request starts sooner. Text edits to undici's own files are
// not here: they are the one patch file (patches/undici@<version>.patch, scripts/build-undici.mjs).
// README.md, Development, "How the build is made" gives what each buys, measured; test files:
// test/cli/start-up-builtins.test.ts (what `jobs get` loads), test/http/undici-lazy-http.test.ts,
// test/http/undici-trimmed.test.ts, test/unit/lazy-crypto-bundle.test.ts.
// - lazy-assert: undici requires `node:assert` (4 modules) in most files and only calls it
//   (`assert(condition)`): it gets a function that loads node:assert to throw when a condition
//   fails, which an undici that works never does. Any other use of it (`assert.equal`) is handed
//   to node:assert, loaded then, so an undici that starts using one still works.
// - wasm-file: undici's HTTP parser is WebAssembly written into JavaScript as base64 (two
//   variants, 145 KB of string V8 scanned on every start): the build writes the bytes beside the
//   chunks (`llhttpWasmFiles`) and the modules read them when the first connection needs them.
// - lazy-crypto: wes's own code (not the dev-server's) uses two functions of `node:crypto` (16
//   modules, ~2 MB of memory) only to name a temp file, make an idempotency key or a multipart
//   boundary: its imports get those functions, which load node:crypto when first called. Cache
//   file names and content keys are hashed without it (src/util/sha256-hex.ts).
// - lazy-child-process: commander requires `node:child_process` for executable subcommands, which
//   wes has none of: it gets an object that loads child_process when first used.
// - lazy-env-paths: env-paths reads the home and temp folders as it loads. wes's own modules get a
//   function that loads it on first call, so a module that imports it can be in the single
//   executable's start-up snapshot (scripts/build-sea.mjs, WES_SEA_SNAPSHOT=1) without freezing the build machine's
//   home folder into it; on Linux wes never calls it (it follows XDG itself). Its own imports of
//   built-in modules load with it (builtinsRequired).
/** The substitutions by name, each one that `off` does not name (the build measures them one by one). */
export function substitutions({ off = [] } = {}) {
  return {
    name: 'substitutions',
    setup(b) {
      const on = (name) => !off.includes(name);
      const stub = (namespace, contents) => b.onLoad({ filter: /.*/, namespace }, () => ({ contents, loader: 'js' }));
      if (on('wasm-file')) {
        const fromH1 = (importer) => /\/undici\/lib\/dispatcher\/client-h1\.js$/.test(importer.replaceAll('\\', '/'));
        b.onResolve({ filter: /^\.\.\/llhttp\/llhttp(_simd)?-wasm\.js$/ }, (args) =>
          fromH1(args.importer) ? { path: args.path.endsWith('_simd-wasm.js') ? LLHTTP_WASM.simd : LLHTTP_WASM.plain, namespace: 'wes-wasm-file' } : undefined,
        );
        b.onLoad({ filter: /.*/, namespace: 'wes-wasm-file' }, (args) => ({
          contents: `module.exports = require('node:fs').readFileSync(require.resolve('./${args.path}'));`,
          loader: 'js',
        }));
      }
      if (on('lazy-assert')) {
        b.onResolve({ filter: /^node:assert$/ }, (args) => (/[\\/]undici[\\/]lib[\\/]/.test(args.importer) ? { path: 'assert', namespace: 'wes-lazy-assert' } : undefined));
        stub('wes-lazy-assert', `${lazyModule('node:assert')}
module.exports = new Proxy(function assert (...args) { if (!args[0]) load()(...args) }, { get: (target, key) => (Object.hasOwn(target, key) ? target[key] : load()[key]) });`);
      }
      if (on('lazy-crypto')) {
        b.onResolve({ filter: /^node:crypto$/ }, (args) => (wesOwn(args.importer) ? { path: 'crypto', namespace: 'wes-lazy-crypto' } : undefined));
        b.onLoad({ filter: /.*/, namespace: 'wes-lazy-crypto' }, () => ({
          contents: LAZY_CRYPTO.map((name) => `export function ${name}(...args) { return require('node:crypto').${name}(...args); }`).join('\n'),
          loader: 'js',
        }));
      }
      if (on('lazy-env-paths')) {
        b.onResolve({ filter: /^env-paths$/ }, (args) => (wesOwn(args.importer) ? { path: 'env-paths', namespace: 'wes-lazy-env-paths' } : undefined));
        b.onLoad({ filter: /.*/, namespace: 'wes-lazy-env-paths' }, () => ({
          contents: "export default function envPaths(...args) { return require('env-paths').default(...args); }",
          loader: 'js',
          resolveDir: b.initialOptions.absWorkingDir,
        }));
        b.onLoad({ filter: /[\\/]node_modules[\\/]env-paths[\\/]index\.js$/ }, async (args) => ({ contents: builtinsRequired(await readFile(args.path, 'utf8'), args.path), loader: 'js' }));
      }
      if (on('lazy-child-process')) {
        b.onResolve({ filter: /^node:child_process$/ }, (args) => (/[\\/]commander[\\/]lib[\\/]command\.js$/.test(args.importer) ? { path: 'child_process', namespace: 'wes-lazy-child-process' } : undefined));
        stub('wes-lazy-child-process', `${lazyModule('node:child_process')}
module.exports = new Proxy({}, { get: (_, key) => load()[key] });`);
      }
    },
  };
}

/**
 * env-paths with its default imports of built-in modules (`import path from 'node:path'`) made
 * `require` calls: esbuild turns such an import into a copy of the whole module's properties, one
 * getter each, made where the chunk loads, so every command paid for copying node:process,
 * node:os and node:path (~100 properties, 1.5 ms in a cold node) whether or not it called
 * env-paths. Required, they load with env-paths itself, on its first call. Fails the build when
 * env-paths no longer imports them so.
 */
function builtinsRequired(text, file) {
  let edits = 0;
  const out = text.replace(/^import (\w+) from '(node:\w+)';$/gm, (_, name, spec) => {
    edits++;
    return `const ${name} = require('${spec}');`;
  });
  if (edits === 0 || /^import /m.test(out)) throw new Error(`${file}: lazy-env-paths expects env-paths to import built-in modules only, each as \`import x from 'node:x'\`: review the substitution for this version`);
  return out;
}

/** wes's own files (not the dev-server's): under a src/ folder, and not a dependency's (a checkout may itself sit in a src/ folder). */
function wesOwn(importer) {
  return /[\\/]src[\\/]/.test(importer) && !/[\\/](node_modules|src[\\/]dev-server)[\\/]/.test(importer);
}

/** The substitutions' names, in the order README.md's table gives them. */
export const SUBSTITUTIONS = ['lazy-assert', 'wasm-file', 'lazy-crypto', 'lazy-child-process', 'lazy-env-paths'];

/** A `load()` that requires `name` on first call. */
function lazyModule(name) {
  return `let loaded; const load = () => (loaded ??= require(${JSON.stringify(name)}));`;
}

/** What wes's code imports from node:crypto (test/unit/lazy-crypto-bundle.test.ts checks it imports nothing else). */
export const LAZY_CRYPTO = ['randomBytes', 'randomUUID'];

/** The files undici's two llhttp builds are written to, beside the chunk that reads them. */
export const LLHTTP_WASM = { simd: 'undici-llhttp-simd.wasm', plain: 'undici-llhttp.wasm' };

/** [file name, bytes] of undici's llhttp WebAssembly, as its modules export them. */
export function llhttpWasmFiles() {
  return [
    [LLHTTP_WASM.simd, require('undici/lib/llhttp/llhttp_simd-wasm.js')],
    [LLHTTP_WASM.plain, require('undici/lib/llhttp/llhttp-wasm.js')],
  ];
}

/**
 * A plugin for a second build that makes esbuild put the CLI's shared modules in few chunks.
 * esbuild groups modules into chunks by the set of entries (dynamic imports included) that reach
 * them, so a module that `program.ts` and two command modules import landed in its own small
 * chunk, and `jobs get` loaded 37 ES modules (each resolved, read and linked: ~0.8 M
 * instructions apiece). But every command module is loaded by program's action, after program and
 * factory: so each of the CLI's dynamic entries (from `firstBuild`'s metafile) now imports
 * program.ts and cli-factory.ts first (cli-factory.ts imports program.ts), which at run time are already
 * there, and all the modules of their closures share one set of entries: one chunk each. Nothing
 * the library entry (index.ts) or the dev-server entry can load, statically or dynamically, is
 * touched: they never load the CLI. `jobs get` loads 16 modules; `wes --help` 8 instead of 20.
 */
export function programFirst(root, firstBuild) {
  const outputs = firstBuild.outputs;
  const program = resolve(root, 'src/program.ts');
  const factory = resolve(root, 'src/cli-factory.ts');
  const dynamicEntries = new Set(Object.values(outputs).flatMap((out) => (out.entryPoint ? [resolve(root, out.entryPoint)] : [])));
  const reach = (file, seen) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imp of outputs[file].imports) if (!imp.external) reach(imp.path, seen);
  };
  const notCli = new Set();
  for (const [file, out] of Object.entries(outputs)) if (out.entryPoint && /^src\/(index|dev-server\/index)\.ts$/.test(out.entryPoint)) reach(file, notCli);
  const untouched = new Set([program, resolve(root, 'src/cli.ts')]);
  for (const file of notCli) for (const input of Object.keys(outputs[file].inputs)) untouched.add(resolve(root, input));
  if (untouched.has(factory)) throw new Error('src/cli-factory.ts is reachable from the library or the dev-server: update programFirst');
  return {
    name: 'program-first',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
        if (!dynamicEntries.has(args.path) || untouched.has(args.path)) return undefined;
        const first = args.path === factory ? [program] : [program, factory];
        return { contents: `${first.map((f) => `import ${JSON.stringify(f)};`).join(' ')}\n${await readFile(args.path, 'utf8')}`, loader: 'ts' };
      });
    },
  };
}
