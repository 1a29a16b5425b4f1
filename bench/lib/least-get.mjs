// The floors under `jobs get ID --json` (bench/clients/least-get/): the same GET and output with
// nothing but a node socket; with nothing but undici's Client; and with commander parsing the
// command line before it, run by node and as a single executable. They are bundled here as wes's
// chunks are (the pinned undici with its patch, the build's substitutions, undici's WebAssembly
// beside the bundles) and run through wes's own code cache (bench/clients/least-get/run-cached.mjs),
// so that they pay what wes pays to load code.
import { spawnSync } from 'node:child_process';
import { chmodSync, createReadStream, createWriteStream, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { patchedUndici } from '../../scripts/build-undici.mjs';
import { llhttpWasmFiles, substitutions } from '../../scripts/build-plugins.mjs';
import { heldModule, injectBlob } from '../../scripts/build-sea.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLIENTS = join(ROOT, 'bench', 'clients', 'least-get');

/**
 * Bundles the floors into `dir`; resolves to each one's argv after node: `socket` and `undici` take
 * the job's URL, `commander` takes wes's (`jobs get ID --json`, WES_BASE_URL in the environment);
 * and `executable`, the path of the commander floor as a single executable, which takes wes's too.
 */
export async function leastGetPrograms(dir) {
  // The floors with the build's plugins; their loaders (wes's code cache) with its dependencies in
  // them: a single executable's entry may require built-in modules only.
  await bundle(dir, ['undici', 'commander'], [patchedUndici(ROOT).plugin, substitutions()]);
  await bundle(dir, ['run-file', 'run-asset'], []);
  for (const [name, bytes] of llhttpWasmFiles()) writeFileSync(join(dir, name), bytes);
  const cached = (name) => [join(dir, 'run-file.cjs'), join(dir, `${name}.cjs`)];
  return { socket: [join(CLIENTS, 'socket.cjs')], undici: cached('undici'), commander: cached('commander'), executable: await executable(dir) };
}

/** Bundles bench/clients/least-get/<name>.mjs into `dir`/<name>.cjs for each name. */
function bundle(dir, names, plugins) {
  return build({
    entryPoints: Object.fromEntries(names.map((name) => [name, join(CLIENTS, `${name}.mjs`)])),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outdir: dir,
    outExtension: { '.js': '.cjs' },
    plugins,
    logLevel: 'silent',
  }).catch((err) => {
    // esbuild's own message is "Build failed with 1 error:"; the error itself says what.
    const first = err.errors?.[0];
    throw new Error(first ? `bundling ${first.location?.file ?? names.join(', ')}: ${first.text}` : err.message);
  });
}

/**
 * The commander floor as a single executable, made as `npm run build:sea` makes wes's (this node,
 * postject) and copied as a download writes it, as the bench's copy of wes's executable is: its
 * path, run with wes's arguments.
 */
async function executable(dir) {
  const config = join(dir, 'sea-config.json');
  const blob = join(dir, 'floor.blob');
  // Held as build-sea.mjs holds each of wes's modules: compacted, in its function wrapper.
  const wrapped = join(dir, 'commander-wrapped.cjs');
  writeFileSync(wrapped, heldModule('commander.cjs', readFileSync(join(dir, 'commander.cjs'), 'utf8')));
  const assets = Object.fromEntries([['floor.cjs', wrapped], ...llhttpWasmFiles().map(([name]) => [name, join(dir, name)])]);
  writeFileSync(config, JSON.stringify({ main: join(dir, 'run-asset.cjs'), output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }));
  const made = spawnSync(process.execPath, ['--experimental-sea-config', config], { cwd: dir, encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`the floor's executable: ${made.stderr.trim()}`);
  const built = join(dir, 'floor-built');
  injectBlob(blob, built);
  const file = join(dir, 'floor-executable');
  await pipeline(createReadStream(built), createWriteStream(file));
  rmSync(built);
  chmodSync(file, 0o755);
  return file;
}
