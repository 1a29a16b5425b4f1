// `npm run build`: the steps below, in order. Each is one function; a new step is one more entry.
// README.md, Development, "How the build is made" says what each step buys, measured
// (scripts/build-measure.mjs). `prepare` (so `npm ci` and `npm pack`) runs it with --if-changed:
// no build when dist/ was made from the same inputs (scripts/build-inputs.mjs).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { buildInputs, distIsCurrent, INPUTS_STAMP } from './build-inputs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist`;
// Built beside dist/ and swapped in, so a `wes` started during a rebuild never finds it half-empty.
const staging = `${root}dist.build-${process.pid}`;

if (process.argv.includes('--if-changed') && distIsCurrent(root)) {
  console.error('build: dist/ is already built from these sources (npm run build builds it again)');
  process.exit(0);
}
// Loaded only for a build: the check above answers in milliseconds without TypeScript and esbuild.
// TypeScript (a second of CPU to load) only when the declarations are written.
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

/** Declarations of the library entry and what it reaches (dist/types, for package.json `exports`), with the project's own compiler options. */
async function emitDeclarations() {
  const { default: ts } = await import('typescript');
  const config = ts.getParsedCommandLineOfConfigFile(`${root}tsconfig.json`, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error('cannot read tsconfig.json');
  const options = { ...config.options, noEmit: false, declaration: true, emitDeclarationOnly: true, outDir: `${root}dist/types`, rootDir: `${root}src` };
  const program = ts.createProgram([`${root}src/index.ts`], options);
  const result = program.emit(undefined, undefined, undefined, true);
  if (result.emitSkipped) throw new Error('type declarations were not emitted');
  for (const d of result.diagnostics) console.warn(`declarations: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}
