// `npm pack` and `npm publish` ship package.json as it is on disk. Its scripts belong to a clone:
// they run files under scripts/, which the package does not ship, and `prepare` (which builds dist/
// on `npm ci`) is reported by npm 11 on every global install as an install script to allow. So
// prepack (`strip`) sets the file aside and writes it without `scripts`, after building dist/
// when it was not made from the sources as they are (scripts/build-inputs.mjs); postpack (`restore`) puts
// the file back. A pack that died between the two leaves the saved file, which the next `strip` or
// `restore` puts back first.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distIsCurrent } from './build-inputs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = join(root, 'package.json');
const saved = join(root, 'package.json.clone');

function restore() {
  if (existsSync(saved)) renameSync(saved, manifest);
}

/**
 * dist/ as the sources make it now: `prepare` runs after prepack, but a pack must not depend on that
 * order. Checked here first: a current dist/ (the usual case) then costs no second Node start.
 */
function buildWhenStale() {
  if (distIsCurrent(root)) return;
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-changed'], { cwd: root, stdio: 'inherit' });
}

const mode = process.argv[2];
if (mode === 'strip') {
  restore();
  buildWhenStale();
  const text = readFileSync(manifest, 'utf8');
  const { scripts: _clonesOnly, ...packed } = JSON.parse(text);
  writeFileSync(saved, text);
  // Written beside it and renamed over it: a process reading package.json meanwhile (a test
  // runner's worker resolving a module) sees the old file or the new one, never an empty one.
  const next = `${manifest}.next`;
  writeFileSync(next, `${JSON.stringify(packed, null, 2)}\n`);
  renameSync(next, manifest);
} else if (mode === 'restore') {
  restore();
} else {
  throw new Error('usage: node scripts/pack-manifest.mjs strip|restore');
}
