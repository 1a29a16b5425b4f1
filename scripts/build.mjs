// Bundles src/ with esbuild (code-splitting keeps command modules and the dev-server lazy,
// so `wes --version` loads almost nothing), dependencies included, and emits it as CommonJS
// (toCommonJs below). Then, side by
// side: the completion scripts, printed by the built CLI itself so they match its command tree,
// and the library's type declarations (dist/types, for package.json `exports`).
import { build } from 'esbuild';
import { BUILD_ID_PLACEHOLDER, toCommonJs } from './build-commonjs.mjs';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { llhttpWasmFiles, programFirst, skipUnusedBuiltins } from './build-plugins.mjs';
import { writeCommandManifest } from './command-manifest.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// First, its own step: the command manifest (src/commands/manifest.ts) from the verbs' declarations.
await writeCommandManifest();
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// Build beside dist/ and swap it in, so a `wes` started during a rebuild never finds it half-empty.
const dist = `${root}dist`;
const staging = `${root}dist.build-${process.pid}`;
rmSync(staging, { recursive: true, force: true });
const options = {
  entryPoints: { cli: 'src/cli.ts', 'dev-server': 'src/dev-server/index.ts', index: 'src/index.ts' },
  outdir: staging,
  bundle: true,
  splitting: true,
  format: 'esm', // esbuild splits only ES modules; toCommonJs converts each chunk
  platform: 'node',
  target: 'node20',
  // Dependencies are bundled too: resolving and compiling hundreds of small files dominated the
  // start-up of every command that makes a request (undici alone took twice as long unbundled).
  // Native add-ons stay external: ws's optional ones (ws falls back without them) and the blake3
  // binding (src/util/blake3.ts loads it with require and falls back to WASM).
  external: ['bufferutil', 'utf-8-validate', '@napi-rs/blake-hash'],
  chunkNames: 'chunks/[name]-[hash]',
  define: { __WES_VERSION__: JSON.stringify(pkg.version), __WES_BUILD_ID__: JSON.stringify(BUILD_ID_PLACEHOLDER) },
  logLevel: 'warning',
  plugins: [skipUnusedBuiltins],
  metafile: true,
};
// Twice: the first build's metafile says which modules are the CLI's dynamic entries (programFirst).
const firstBuild = await build({ ...options, write: false });
const built = await build({ ...options, write: false, plugins: [...options.plugins, programFirst(root, firstBuild.metafile)] });
await toCommonJs(built.outputFiles, staging);
// undici's WebAssembly HTTP parser, read by the chunk that holds its loader (see build-plugins.mjs).
const wasmReaders = Object.entries(built.metafile.outputs).filter(([, out]) => Object.keys(out.inputs).some((input) => input.startsWith('wes-wasm-file:')));
if (wasmReaders.length === 0) throw new Error("no output reads undici's llhttp WebAssembly: check skipUnusedBuiltins");
// They resolve the files with the bundle's `require`, made in esbuild's shared runtime chunk: both are chunks.
if (wasmReaders.some(([file]) => dirname(resolve(root, file)) !== `${staging}/chunks`)) throw new Error("undici's llhttp loader left dist/chunks: check skipUnusedBuiltins");
for (const [name, bytes] of llhttpWasmFiles()) writeFileSync(`${staging}/chunks/${name}`, bytes);
const retired = `${root}dist.old-${process.pid}`;
if (existsSync(dist)) renameSync(dist, retired);
renameSync(staging, dist);
rmSync(retired, { recursive: true, force: true });

// Child processes: they run while the declarations below are emitted.
const run = promisify(execFile);
const completions = Promise.all(
  ['bash', 'zsh', 'fish'].map(async (shell) => {
    const { stdout } = await run(process.execPath, ['bin/wes.js', 'completion', shell], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
    return [shell, stdout];
  }),
);

emitDeclarations();

mkdirSync(new URL('../completions', import.meta.url), { recursive: true });
for (const [shell, script] of await completions) writeFileSync(new URL(`../completions/wes.${shell}`, import.meta.url), script);

/** Declarations of the library entry and what it reaches, with the project's own compiler options. */
function emitDeclarations() {
  const config = ts.getParsedCommandLineOfConfigFile(`${root}tsconfig.json`, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error('cannot read tsconfig.json');
  const options = { ...config.options, noEmit: false, declaration: true, emitDeclarationOnly: true, outDir: `${root}dist/types`, rootDir: `${root}src` };
  const program = ts.createProgram([`${root}src/index.ts`], options);
  const result = program.emit(undefined, undefined, undefined, true);
  if (result.emitSkipped) throw new Error('type declarations were not emitted');
  for (const d of result.diagnostics) console.warn(`declarations: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}
