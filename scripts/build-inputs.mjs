// What a build is made from, as one SHA-256: every file under src/, scripts/, patches/ and bin/,
// tsconfig.json, package-lock.json (the exact dependencies, undici and esbuild among them) and
// package.json without its `scripts` (prepack takes those out while a pack runs; nothing in dist/
// comes from them). `npm ci` and `npm pack` build through `prepare` (`build.mjs --if-changed`),
// which skips the build when dist/ was made from exactly these bytes: the content decides, not
// modification times, which a checkout or a copy changes without changing a byte.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file dist/ records its inputs in, written when a build has finished every step. */
export const INPUTS_STAMP = 'build-inputs.sha256';

function filesUnder(root, dir, into) {
  if (!existsSync(join(root, dir))) return into;
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) filesUnder(root, path, into);
    else if (entry.isFile()) into.push(path);
  }
  return into;
}

export function buildInputs(root) {
  const hash = createHash('sha256');
  const add = (name, bytes) => hash.update(`${name}\0${bytes.length}\0`).update(bytes);
  const files = ['src', 'scripts', 'patches', 'bin'].flatMap((dir) => filesUnder(root, dir, [])).sort();
  for (const file of [...files, 'tsconfig.json', 'package-lock.json']) {
    if (existsSync(join(root, file))) add(file, readFileSync(join(root, file)));
  }
  const { scripts: _notBuilt, ...manifest } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  add('package.json', Buffer.from(JSON.stringify(manifest)));
  return hash.digest('hex');
}

/** Whether dist/ was built, every step of it, from the inputs as they are now. */
export function distIsCurrent(root) {
  try {
    return readFileSync(join(root, 'dist', INPUTS_STAMP), 'utf8').trim() === buildInputs(root);
  } catch {
    return false;
  }
}
