// Runs a CommonJS bundle from a V8 code cache kept beside it (<bundle>.v8), written by the first
// run (or when V8 rejects it), as wes runs its chunks (src/runtime/code-cache.ts): the floor
// programs then pay what wes pays to load code, not a compile from source.
//   node cached-script.cjs <bundle.cjs> [args...]
const { isAscii } = require('node:buffer');
const { readFileSync, writeFileSync } = require('node:fs');
const { dirname } = require('node:path');
const Module = require('node:module');
const vm = require('node:vm');

// wes's one V8 flag (src/runtime/wasm-tiering.ts: undici's parser stays at baseline, so exit does not
// wait for its optimisation), set before compiling: V8 keys a code cache by the flags in force.
require('node:v8').setFlagsFromString('--wasm-tiering-budget=2000000000');
const bundle = process.argv[2];
const cacheFile = `${bundle}.v8`;
process.argv.splice(2, 1);
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  // first run: no cache yet
}
const bytes = readFileSync(bundle);
// Latin-1 makes a one-byte string, as wes decodes an ASCII chunk; UTF-8 text needs its decoder.
const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
const script = new vm.Script(Module.wrap(source), { filename: bundle, cachedData });
if (!cachedData || script.cachedDataRejected) process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
const bundleModule = { exports: {} };
script.runInThisContext()(bundleModule.exports, Module.createRequire(bundle), bundleModule, bundle, dirname(bundle));
