// `npm run build`: the steps below, in order. Each is one function; a new step is one more entry.
// README.md, Development, "How the build is made" says what each step buys, measured
// (scripts/build-measure.mjs). `prepare` (so `npm ci` and `npm pack`) runs it with --if-changed:
// no build when dist/ was made from the same inputs (scripts/build-inputs.mjs).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { buildInputs, distIsCurrent, INPUTS_STAMP } from './build-inputs.mjs';
import { packageBin } from './package-bin.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist`;
// Built beside dist/ and swapped in, so a `wes` started during a rebuild never finds it half-empty.
const staging = `${root}dist.build-${process.pid}`;

if (process.argv.includes('--if-changed') && distIsCurrent(root)) {
  console.error('build: dist/ is already built from these sources (npm run build builds it again)');
  process.exit(0);
}
// Loaded only for a build: the check above answers in milliseconds without TypeScript and esbuild.
const [{ bundle }, { pinnedUndici }, { writeCommandManifest }] = await Promise.all([
  import('./build-bundle.mjs'),
  import('./build-undici.mjs'),
  import('./command-manifest.mjs'),
]);

/** The inputs as the bundle reads them (after the manifest step), recorded in dist/ once every step is done. */
let inputs = '';

const steps = [
  ['check undici', () => pinnedUndici(root)], // first: a drifted pin stops the build before any work
  ['command manifest', () => writeCommandManifest()], // src/commands/manifest.ts from the verbs' declarations, before the bundle reads it
  ['bundle', () => ((inputs = buildInputs(root)), bundleIntoDist())],
  ['completions and declarations', () => Promise.all([writeCompletions(), emitDeclarations()])],
  ['record the inputs', () => writeFileSync(`${dist}/${INPUTS_STAMP}`, `${inputs}\n`)],
];

for (const [name, step] of steps) {
  try {
    await step();
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    console.error(`build: ${name}: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}

async function bundleIntoDist() {
  rmSync(staging, { recursive: true, force: true });
  await bundle(root, staging);
  const retired = `${root}dist.old-${process.pid}`;
  if (existsSync(dist)) renameSync(dist, retired);
  renameSync(staging, dist);
  rmSync(retired, { recursive: true, force: true });
}

/** The completion scripts, printed by the built CLI itself so they match its command tree. */
async function writeCompletions() {
  const run = promisify(execFile);
  const scripts = await Promise.all(
    ['bash', 'zsh', 'fish'].map(async (shell) => {
      const { stdout } = await run(process.execPath, ['bin/wes.js', 'completion', shell], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
      return [shell, stdout];
    }),
  );
  mkdirSync(`${root}completions`, { recursive: true });
  for (const [shell, script] of scripts) writeFileSync(`${root}completions/wes.${shell}`, script);
}

/**
 * Declarations of the library entry and what it reaches (dist/types, for package.json `exports`),
 * with the project's own compiler options: TypeScript 7 is a native compiler run as a command, so
 * the options are a config file that extends tsconfig.json, named for this build alone (builds of
 * copies that share node_modules run side by side in the tests) and removed after.
 */
async function emitDeclarations() {
  // Beside tsc's own state: @types are found from there as from tsconfig.json.
  const configDir = `${root}node_modules/.cache/wes`;
  mkdirSync(configDir, { recursive: true });
  const config = join(configDir, `tsconfig.types-${process.pid}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      extends: `${root}tsconfig.json`,
      compilerOptions: { noEmit: false, declaration: true, emitDeclarationOnly: true, outDir: `${root}dist/types`, rootDir: `${root}src` },
      files: [`${root}src/index.ts`],
      include: [],
    }),
  );
  try {
    await promisify(execFile)(process.execPath, [packageBin('typescript', 'tsc'), '-p', config, '--singleThreaded'], { cwd: root });
  } catch (err) {
    const { stdout = '', stderr = '' } = /** @type {{ stdout?: string, stderr?: string }} */ (err);
    throw new Error(`type declarations were not emitted:\n${stdout}${stderr}`);
  } finally {
    rmSync(config, { force: true });
  }
}
