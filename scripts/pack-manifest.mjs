// `npm pack` and `npm publish` ship package.json as it is on disk. Its scripts belong to a clone:
// they run files under scripts/, which the package does not ship, and `prepare` (which builds dist/
// on `npm ci`) is reported by npm 11 on every global install as an install script to allow. So
// prepack (`strip`) sets the file aside and writes it without `scripts`, after building dist/
// when a source, a build script or the undici patch is newer than it; postpack (`restore`) puts
// the file back. A pack that died between the two leaves the saved file, which the next `strip` or
// `restore` puts back first.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = join(root, 'package.json');
const saved = join(root, 'package.json.clone');

function restore() {
  if (existsSync(saved)) renameSync(saved, manifest);
}

/** The newest modification time under `dir` (source files only). */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function buildWhenStale() {
  const built = join(root, 'dist', 'cli.js');
  const sources = Math.max(...['src', 'scripts', 'patches'].map((dir) => newest(join(root, dir))), statSync(manifest).mtimeMs);
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
}

const mode = process.argv[2];
if (mode === 'strip') {
  restore();
  buildWhenStale();
  const text = readFileSync(manifest, 'utf8');
  const { scripts: _clonesOnly, ...packed } = JSON.parse(text);
  writeFileSync(saved, text);
  writeFileSync(manifest, `${JSON.stringify(packed, null, 2)}\n`);
} else if (mode === 'restore') {
  restore();
} else {
  throw new Error('usage: node scripts/pack-manifest.mjs strip|restore');
}
