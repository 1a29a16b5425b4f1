// The script an installed package's `bin` names (what npx would run), found without a shell: the
// scripts start it with this Node (`process.execPath`).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export function packageBin(pkg, name) {
  const manifest = require.resolve(`${pkg}/package.json`);
  return join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).bin[name]);
}
