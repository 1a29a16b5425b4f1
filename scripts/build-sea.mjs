// `npm run build:sea`: wes as one executable file, dist/sea/wes-<platform>-<arch>, made from the
// built dist/ and this machine's node binary (Node's single executable applications), its modules
// compiled with V8's code cache. README.md, Install and Development, "The single executable".
//
// 1. dist/ is built when it is not current (build.mjs --if-changed).
// 2. One entry script: the loader (src/runtime/sea-loader.ts, bundled here). Every module of dist/
//    is in one asset, compacted and in the function wrapper it is compiled in (heldModule),
//    compiled when first required with V8's code cache (src/runtime/code-cache.ts).
//    With WES_SEA_SNAPSHOT=1 (SNAPSHOT, not the default: measured), the entry also holds the
//    modules wes runs before it reads argv (cli.js and what it imports, and SNAPSHOT_SOURCES) as
//    functions, which the loader runs while node builds a start-up snapshot.
// 3. Assets beside them: undici's WebAssembly parser and the native blake3 addon of this platform.
// 4. `node --experimental-sea-config` builds the blob (and the snapshot, or the entry's code
//    cache); postject puts the blob into a copy of this node binary. A snapshot or code cache is
//    made by the node that will run it, so each platform's file is built on that platform
//    (.github/workflows/release.yml).
// 5. It prints the file's path, size and SHA-256, and writes dist/sea/SHA256SUMS.
// --if-changed: nothing when dist/sea already holds a file built from the sources as they are
// (dist/'s record of its inputs, copied beside it); the smoke tests build it that way.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transformSync } from 'esbuild';
import { buildId } from './build-commonjs.mjs';
import { buildInputs, distIsCurrent, INPUTS_STAMP } from './build-inputs.mjs';
import { substitutions } from './build-plugins.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const out = join(dist, 'sea');
const work = join(out, '.build');
const require = createRequire(import.meta.url);

/**
 * Whether the executable starts from a V8 start-up snapshot of its own (`useSnapshot`). Not by
 * default, measured: Node copies a single executable's snapshot (4.4 MB) out of the file into
 * memory at every start, while plain node maps its own from its binary. Without one, `jobs get`
 * peaked at 52.5 MB of RSS instead of 57.3 MB (the npm build: 55.3 MB) and took less CPU time
 * (180 against 201 ms, 1 000 fewer page faults), for 8 % more instructions: V8 compiles the
 * functions the snapshot held (bench/RESULTS.md, issue 40, fourth round). WES_SEA_SNAPSHOT=1
 * builds with one, to measure.
 */
export const SNAPSHOT = process.env.WES_SEA_SNAPSHOT === '1';

/**
 * With a snapshot (SNAPSHOT), the chunks run into it besides cli.js's own (each names the chunk
 * that holds it; what those chunks import comes too). None, measured: the snapshot holds the entry and its loader,
 * and every command's modules come from the code cache. With the command manifest, commander and
 * the parsers (src/program.ts) in the snapshot, `jobs get` took 635 M instructions instead of
 * 623 M; with the HTTP layer, undici and the jobs and models clients too, 654 M, and `--version`
 * 544 M instead of 511 M (node -e 0: 505 M): V8 reads and checksums the whole snapshot on every
 * start, while a code cache is read for the functions a command runs. README.md, Development,
 * "The single executable". WES_SEA_SNAPSHOT_SOURCES=src/a.ts,src/b.ts builds with others, to measure.
 */
export const SNAPSHOT_SOURCES = process.env.WES_SEA_SNAPSHOT_SOURCES?.split(',').filter(Boolean) ?? [];

/**
 * Built-in modules the loader loads first. With a snapshot, while it is built: the loader
 * compiles every module with node:vm, which otherwise is compiled at each start. Without one,
 * before the loader sets the program's V8 flag (src/runtime/v8-flags.ts): Node's code cache
 * of its built-in modules is keyed by V8's flags, so one first loaded after the flag is compiled
 * from source; node:net and node:diagnostics_channel, which every HTTP command loads, cost `jobs
 * get` 12 M instructions that way.
 */
const START_BUILTINS = SNAPSHOT ? ['node:vm'] : ['node:vm', 'node:net', 'node:diagnostics_channel'];

/** Built-in modules Node does not vouch for in a snapshot that a module of it loads, each reviewed: why it is safe. */
const UNVERIFIED_BUILTINS = {
  'node:vm': "START_BUILTINS: the loader's compiler (vm.Script with cachedData, runInThisContext, no importModuleDynamically); its module state is the contextify binding's classes and Node's per-isolate symbols, which the snapshot restores; test/cli/sea-executable.test.ts runs every family through it",
  'node:async_hooks': "undici's API modules take the AsyncResource class as they load; no resource exists before a request, which is after start-up",
};

/** The asset holding every module the loader compiles (packModules). */
const MODULE_PACK = 'modules.pack';

/** The file name of the executable for a platform and architecture. */
export function executableName(platform = process.platform, arch = process.arch) {
  return `wes-${platform}-${arch}${platform === 'win32' ? '.exe' : ''}`;
}

/** The sentinel Node looks for to know a blob was injected (documented with SEAs). */
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** What dist/sea records it was built from: the inputs dist/ records, and the snapshot variant when it is one. */
const seaInputs = (inputs) => `${inputs.trim()}${SNAPSHOT ? ' snapshot' : ''}\n`;

/** Whether dist/sea holds an executable built from the sources as they are now, as this variant (SNAPSHOT). */
export function seaIsCurrent() {
  const file = join(out, executableName());
  try {
    return existsSync(file) && distIsCurrent(root) && readFileSync(join(out, INPUTS_STAMP), 'utf8') === seaInputs(buildInputs(root));
  } catch {
    return false;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  if (process.argv.includes('--if-changed') && seaIsCurrent()) {
    console.error(`build:sea: dist/sea/${executableName()} is already built from these sources (npm run build:sea builds it again)`);
    process.exit(0);
  }
  try {
    const file = await buildSea();
    const bytes = readFileSync(file);
    const sha = createHash('sha256').update(bytes).digest('hex');
    writeFileSync(join(out, 'SHA256SUMS'), `${sha}  ${basename(file)}\n`);
    writeFileSync(join(out, INPUTS_STAMP), seaInputs(readFileSync(join(dist, INPUTS_STAMP), 'utf8')));
    console.log(`${relative(process.cwd(), file) || file}\n  ${(bytes.length / 1024 / 1024).toFixed(1)} MiB (${bytes.length} bytes)\n  sha256 ${sha}\n  built in ${((Date.now() - started) / 1000).toFixed(1)} s; checksum in ${relative(process.cwd(), join(out, 'SHA256SUMS'))}`);
  } catch (err) {
    console.error(`build:sea: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}

export async function buildSea() {
  const t0 = Date.now();
  const lap = (what) => process.env.WES_SEA_TIMES && console.error(`build:sea: ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--if-changed'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the npm build failed');
  lap('npm build checked');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const modules = distModules();
  const id = checkedBuildId(modules);
  const preload = SNAPSHOT ? snapshotClosure(modules) : [];
  const files = { ...wasmFiles(), ...nativeBlake3() };
  const pack = packModules(modules, preload);
  const entry = join(work, 'entry.js');
  writeFileSync(entry, await entryScript(modules, preload, files, id, pack));
  const assets = Object.fromEntries([[MODULE_PACK, pack.path], ...Object.entries(files).map(([name, f]) => [name, f.path])]);
  const blob = join(work, 'sea-prep.blob');
  const config = join(work, 'sea-config.json');
  writeFileSync(config, JSON.stringify({ main: entry, output: blob, disableExperimentalSEAWarning: true, useSnapshot: SNAPSHOT, useCodeCache: !SNAPSHOT, assets }, null, 2));
  lap('entry written');
  const made = spawnSync(process.execPath, ['--experimental-sea-config', config], { cwd: work, encoding: 'utf8' });
  // Node warns of a built-in module not known to work in a snapshot: a failure here, unless reviewed (UNVERIFIED_BUILTINS).
  const warnings = made.stderr
    .split('\n')
    .filter((line) => /Warning/.test(line) && !/Single executable application is an experimental feature/.test(line))
    .filter((line) => !Object.keys(UNVERIFIED_BUILTINS).some((name) => line.includes(`built-in module "${name}"`)));
  if (made.status !== 0 || warnings.length > 0) throw new Error(`node could not build the snapshot:\n${made.stderr.trim()}`);
  lap('snapshot and blob made');
  const file = join(out, executableName());
  injectBlob(blob, file);
  lap('node copied, blob injected');
  rmSync(work, { recursive: true, force: true });
  return file;
}

/** `file`: a copy of this node binary with the single-executable blob `blob` put into it (postject). */
export function injectBlob(blob, file) {
  rmSync(file, { force: true });
  copyFileSync(process.execPath, file);
  chmodSync(file, 0o755);
  if (process.platform === 'darwin') execFileSync('codesign', ['--remove-signature', file]);
  const postject = require.resolve('postject/dist/cli.js');
  const inject = spawnSync(process.execPath, [postject, file, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE, ...(process.platform === 'darwin' ? ['--macho-segment-name', 'NODE_SEA'] : [])], { encoding: 'utf8' });
  if (inject.status !== 0) throw new Error(`postject failed:\n${inject.stderr}`);
  if (process.platform === 'darwin') execFileSync('codesign', ['--sign', '-', file]);
}

/** Every script of dist/ (not the declarations), by its path in dist/ with '/' separators: its text. */
function distModules() {
  const modules = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'types' && entry.name !== 'sea') walk(path);
      else if (entry.isFile() && entry.name.endsWith('.js')) modules.set(relative(dist, path).split(sep).join('/'), readFileSync(path, 'utf8'));
    }
  };
  walk(dist);
  if (!modules.has('cli.js')) throw new Error('dist/cli.js is missing');
  return modules;
}

/**
 * The modules the loader compiles (all but the snapshot's preload), as the executable holds them
 * (heldModule), one after the other in one asset: its path, each module's byte offset and length
 * in it, and the modules whose bytes are ASCII alone. One asset, not one per module: at each start
 * Node reads the length of every asset where it lies in the file, and 255 of them spread over 5 MB
 * cost ~20 page faults (bench/RESULTS.md).
 */
function packModules(modules, preload) {
  const index = {};
  const ascii = [];
  const parts = [];
  let offset = 0;
  for (const [name, text] of modules) {
    if (preload.includes(name)) continue;
    const held = heldModule(name, text);
    const bytes = Buffer.from(held, 'utf8');
    index[name] = [offset, bytes.length];
    if (bytes.length === held.length) ascii.push(name);
    parts.push(bytes);
    offset += bytes.length;
  }
  const path = join(work, MODULE_PACK);
  writeFileSync(path, Buffer.concat(parts));
  return { path, index, ascii };
}

/**
 * A module's text as the executable holds it, what the loader compiles as it is (src/runtime/
 * sea-loader.ts): compacted, then in Node's CommonJS function wrapper (Module.wrap).
 * - Compacted: without the whitespace and comments the code does not need (esbuild's
 *   minifyWhitespace; names, syntax and legal comments kept), non-ASCII characters written as
 *   escapes. The loader copies every module it loads into a string, and those copies, their pages
 *   and the collections that move them were much of what a `jobs get` costs over a program of
 *   commander and undici alone (687 KB of text on its path, 467 KB so; bench/RESULTS.md). An ASCII
 *   module is copied as Latin-1, a one-byte string. The npm build's chunks stay as they are.
 * - Wrapped here, not at each start: joining the wrapper to the text there made a second copy of
 *   every module (V8 flattens the joined string before it compiles it: 74 more page faults a
 *   `jobs get`).
 */
export function heldModule(name, text) {
  let compact;
  try {
    compact = transformSync(text, { loader: 'js', minifyWhitespace: true, charset: 'ascii', legalComments: 'inline', logLevel: 'silent' }).code;
  } catch (err) {
    throw new Error(`${name}: esbuild could not compact it: ${err.errors?.[0]?.text ?? err.message}`);
  }
  return Module.wrap(compact);
}

/** dist/'s build id, computed as build-commonjs.mjs does and checked against the one cli.js holds. */
function checkedBuildId(modules) {
  const id = buildId([...modules].filter(([name]) => name !== 'cli.js').map(([name, text]) => ({ name, text })));
  if (!modules.get('cli.js').includes(JSON.stringify(id))) throw new Error(`dist/cli.js does not hold the build id ${id}: rebuild with npm run build`);
  return id;
}

/** cli.js, the chunks holding SNAPSHOT_SOURCES, and every module they require as they load, dependencies first. */
function snapshotClosure(modules) {
  const order = [];
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    if (!modules.has(name)) throw new Error(`${name} is required as a module loads but is not in dist/`);
    // Top-level requires (esbuild writes each as `var x = require("./...")`); a dynamic import is a require inside a function.
    for (const [, spec] of modules.get(name).matchAll(/^var \w+ = require\("(\.\.?\/[^"]+)"\);$/gm)) visit(joinPosix(dirname(name).split(sep).join('/'), spec));
    order.push(name);
  };
  visit('cli.js');
  for (const source of SNAPSHOT_SOURCES) {
    const holders = [...modules].filter(([, text]) => text.includes(`\n// ${source}\n`)).map(([name]) => name);
    if (holders.length !== 1) throw new Error(`${source}: expected in one chunk of dist/, found in ${holders.length}: update SNAPSHOT_SOURCES`);
    visit(holders[0]);
  }
  return order;
}

function joinPosix(dir, spec) {
  const parts = dir === '.' ? [] : dir.split('/');
  for (const part of spec.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

/** undici's WebAssembly parser files, which its chunk resolves beside itself. */
function wasmFiles() {
  const chunks = join(dist, 'chunks');
  return Object.fromEntries(
    readdirSync(chunks)
      .filter((name) => name.endsWith('.wasm'))
      .map((name) => [`chunks/${name}`, { path: join(chunks, name), bytes: statSync(join(chunks, name)).size }]),
  );
}

/** This platform's native blake3 addon (the optional dependency's package for it), when installed and loadable here. */
function nativeBlake3() {
  let scope;
  try {
    scope = dirname(dirname(require.resolve('@napi-rs/blake-hash/package.json')));
  } catch {
    scope = undefined;
  }
  const candidates = scope && existsSync(scope) ? readdirSync(scope).filter((name) => name.startsWith(`blake-hash-${process.platform}-${process.arch}`)) : [];
  for (const name of candidates) {
    for (const file of readdirSync(join(scope, name)).filter((f) => f.endsWith('.node'))) {
      const path = join(scope, name, file);
      try {
        if (typeof require(path).Blake3Hasher !== 'function') continue;
      } catch {
        continue; // another libc's build
      }
      return { 'blake3.node': { path, bytes: statSync(path).size } };
    }
  }
  console.warn('build:sea: no native blake3 addon for this platform is installed: the executable will hash with WASM');
  return {};
}

async function entryScript(modules, preload, files, id, pack) {
  const loader = await build({
    absWorkingDir: root,
    entryPoints: ['src/runtime/sea-loader.ts'],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'warning',
    plugins: [substitutions()],
    // The version the loader answers `--version` with before loading cli.js, from package.json as
    // build-bundle.mjs takes it for dist/ (package.json is among dist/'s build inputs, so dist/ is current with it).
    define: { __WES_VERSION__: JSON.stringify(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version) },
  });
  const inline = preload.map((name) => `${JSON.stringify(name)}: function (exports, require, module, __filename, __dirname) {\n${modules.get(name)}\n}`);
  const bundle = {
    modules: pack.index,
    pack: MODULE_PACK,
    ascii: pack.ascii,
    files: Object.fromEntries(Object.entries(files).map(([name, f]) => [name, f.bytes])),
    nativeBlake3: 'blake3.node' in files ? 'blake3.node' : undefined,
    buildId: id,
    snapshot: SNAPSHOT,
    preload,
    startBuiltins: START_BUILTINS,
    reviewedBuiltins: Object.keys(UNVERIFIED_BUILTINS).filter((name) => preload.some((m) => modules.get(m).includes(`require(${JSON.stringify(name)})`))),
  };
  return [
    '"use strict";',
    '// Generated by scripts/build-sea.mjs: the entry of the wes single executable (see src/runtime/sea-loader.ts).',
    `const inline = {\n${inline.join(',\n')}\n};`,
    `const loader = (() => { const module = { exports: {} }; const exports = module.exports;\n${loader.outputFiles[0].text}\nreturn module.exports; })();`,
    `loader.start({ inline, builtin: require, ...${JSON.stringify(bundle)} });`,
    '',
  ].join('\n');
}
