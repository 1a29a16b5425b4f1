// The floors run by node: `node run-file.cjs <bundle.cjs> [args...]` runs the bundle from wes's code
// cache, kept in <bundle.cjs>.cache/ (run-cached.mjs). least-get.mjs bundles this file.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { runCached } from './run-cached.mjs';

const [bundle] = process.argv.splice(2, 1);
runCached(readFileSync(bundle), bundle, createRequire(bundle), `${bundle}.cache`);
