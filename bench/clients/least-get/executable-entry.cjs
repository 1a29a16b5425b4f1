// The entry of the floor built as a single executable (least-get.mjs): runs the bundle held as the
// asset `floor.cjs` from a code cache beside the executable (<executable>.v8), as wes's executable
// runs its chunks (src/runtime/sea-loader.ts), with wes's WebAssembly flag. undici's parser is read
// from the executable's assets too, where the bundle reads it from a file beside itself.
const { isAscii } = require('node:buffer');
const { getRawAsset } = require('node:sea');
const fs = require('node:fs');
const Module = require('node:module');
const vm = require('node:vm');

require('node:v8').setFlagsFromString('--wasm-tiering-budget=2000000000');
const asset = (name) => Buffer.from(getRawAsset(name));
const cacheFile = `${process.execPath}.v8`;
let cachedData;
try {
  cachedData = fs.readFileSync(cacheFile);
} catch {
  // first run: no cache yet
}
const bytes = asset('floor.cjs');
// Latin-1 makes a one-byte string, as wes decodes an ASCII chunk; UTF-8 text needs its decoder.
const script = new vm.Script(Module.wrap(bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8')), { filename: 'floor.cjs', cachedData });
if (!cachedData || script.cachedDataRejected) process.on('exit', () => fs.writeFileSync(cacheFile, script.createCachedData()));
const assetFs = { ...fs, readFileSync: (path, ...rest) => (String(path).endsWith('.wasm') ? asset(String(path)) : fs.readFileSync(path, ...rest)) };
const floorRequire = Object.assign((id) => (id === 'node:fs' || id === 'fs' ? assetFs : require(id)), { resolve: (path) => path.replace(/^\.\//, '') });
const floorModule = { exports: {} };
script.runInThisContext()(floorModule.exports, floorRequire, floorModule, 'floor.cjs', '.');
