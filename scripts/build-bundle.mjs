// The bundle step of scripts/build.mjs: src/ and its dependencies through esbuild (code-splitting
// keeps command modules and the dev-server lazy, so `wes --version` loads almost nothing), twice
// (programFirst), with undici patched (scripts/build-undici.mjs) and the module substitutions
// (scripts/build-plugins.mjs), each chunk written as CommonJS (scripts/build-commonjs.mjs), and
// undici's WebAssembly parser written beside the chunks. README.md, Development, "How the build is
// made" gives what each part buys; `off` leaves parts out, one at a time, to measure that
// (scripts/build-measure.mjs): the shipped build turns nothing off.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { BUILD_ID_PLACEHOLDER, toCommonJs } from './build-commonjs.mjs';
import { llhttpWasmFiles, programFirst, substitutions } from './build-plugins.mjs';
import { patchedUndici } from './build-undici.mjs';

/** What `off` may name besides the patch's purposes (`patch:<purpose>`) and the substitutions. */
export const BUNDLE_PARTS = ['bundle-dependencies', 'undici-internals', 'program-first', 'commonjs'];

/** Bundles the checkout at `root` into `outdir` (which it fills; the caller swaps it in). */
export async function bundle(root, outdir, { off = [] } = {}) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const undici = patchedUndici(root, { off: off.filter((part) => part.startsWith('patch:')).map((part) => part.slice('patch:'.length)) });
  const dependencies = !off.includes('bundle-dependencies');
  const commonJs = !off.includes('commonjs');
  const options = {
    absWorkingDir: root,
    entryPoints: { cli: 'src/cli.ts', 'dev-server': 'src/dev-server/index.ts', index: 'src/index.ts' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm', // esbuild splits only ES modules; toCommonJs converts each chunk
    platform: 'node',
    target: 'node20',
    // Dependencies are bundled too: resolving and compiling hundreds of small files dominated the
    // start-up of every command that makes a request (undici alone took twice as long unbundled).
    // Native add-ons stay external: ws's optional ones (ws falls back without them) and the blake3
    // binding (src/util/blake3.ts loads it with require and falls back to WASM).
    ...(dependencies ? { external: ['bufferutil', 'utf-8-validate', '@napi-rs/blake-hash'] } : { packages: 'external' }),
    // ES modules have no `require` for the bundled CommonJS packages to call: each chunk makes one.
    ...(commonJs ? {} : { banner: { js: "import { createRequire as __wesCreateRequire } from 'node:module'; const require = __wesCreateRequire(import.meta.url);" } }),
    chunkNames: 'chunks/[name]-[hash]',
    // Without CommonJS there is no CommonJS loader to hook: no code cache, no learnt built-in
    // modules (src/cli.ts, src/runtime/built-modules.ts).
    define: { __WES_VERSION__: JSON.stringify(pkg.version), __WES_BUILD_ID__: commonJs ? JSON.stringify(BUILD_ID_PLACEHOLDER) : 'undefined' },
    logLevel: 'warning',
    plugins: [undici.plugin, substitutions({ off }), ...(off.includes('undici-internals') ? [undiciFromItsIndex(root)] : [])],
    metafile: true,
    write: false,
  };
  let built = await build(options);
  // Twice: the first build's metafile says which modules are the CLI's dynamic entries (programFirst).
  if (!off.includes('program-first')) built = await build({ ...options, plugins: [...options.plugins, programFirst(root, built.metafile)] });
  if (dependencies) undici.checkApplied();
  if (commonJs) await toCommonJs(built.outputFiles, outdir);
  else writeEsModules(built.outputFiles, outdir);
  if (dependencies && !off.includes('wasm-file')) writeWasmParser(root, outdir, built.metafile);
  return built.metafile;
}

/** undici's WebAssembly HTTP parser, read by the chunk that holds its loader (the wasm-file substitution). */
function writeWasmParser(root, outdir, metafile) {
  const readers = Object.entries(metafile.outputs).filter(([, out]) => Object.keys(out.inputs).some((input) => input.startsWith('wes-wasm-file:')));
  if (readers.length === 0) throw new Error("no output reads undici's llhttp WebAssembly: check the wasm-file substitution (scripts/build-plugins.mjs)");
  // They resolve the files with the bundle's `require`, made in esbuild's shared runtime chunk: both are chunks.
  if (readers.some(([file]) => dirname(resolve(root, file)) !== join(outdir, 'chunks'))) throw new Error("undici's llhttp loader left dist/chunks: check the wasm-file substitution");
  for (const [name, bytes] of llhttpWasmFiles()) writeFileSync(join(outdir, 'chunks', name), bytes);
}

/** The chunks as esbuild made them (ES modules), for measuring what the CommonJS conversion buys. */
function writeEsModules(outputFiles, outdir) {
  for (const file of outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.contents);
  }
  writeFileSync(join(outdir, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
}

/** src/http/undici-core.ts given undici's index (its public API) instead of undici's own files. */
function undiciFromItsIndex(root) {
  const fromIndex = {
    'undici/lib/dispatcher/agent.js': 'Agent',
    'undici/lib/dispatcher/proxy-agent.js': 'ProxyAgent',
    'undici/lib/dispatcher/pool.js': 'Pool',
    'undici/lib/core/errors.js': 'errors',
    'undici/lib/api/api-request.js': 'Dispatcher.prototype.request',
    'undici/lib/api/api-connect.js': 'Dispatcher.prototype.connect',
  };
  return {
    name: 'undici-from-its-index',
    setup(b) {
      b.onResolve({ filter: /^undici\/lib\// }, (args) =>
        /[\\/]src[\\/]http[\\/]undici-core\.ts$/.test(args.importer) && fromIndex[args.path] ? { path: args.path, namespace: 'wes-undici-index' } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'wes-undici-index' }, (args) => ({ contents: `module.exports = require('undici').${fromIndex[args.path]};`, loader: 'js', resolveDir: root }));
    },
  };
}
