// The entry of the commander floor built as a single executable (least-get.mjs bundles this file
// as its main): runs the asset `floor.cjs`, held in its function wrapper as wes's modules are, from
// wes's code cache, kept in <executable>.cache/ (run-cached.mjs), as wes's executable runs its
// chunks. undici's parser, which the bundle reads from a file beside itself, comes from the
// executable's assets too.
import * as fs from 'node:fs';
import { getRawAsset } from 'node:sea';
import { runCached } from './run-cached.mjs';

const asset = (name) => Buffer.from(getRawAsset(name));
const assetFs = { ...fs, readFileSync: (path, ...rest) => (String(path).endsWith('.wasm') ? asset(String(path)) : fs.readFileSync(path, ...rest)) };
// A single executable's entry may require built-in modules only: the bundle needs no other.
const floorRequire = Object.assign((id) => (id === 'node:fs' || id === 'fs' ? assetFs : require(id)), { resolve: (path) => path.replace(/^\.\//, '') });
runCached(asset('floor.cjs'), 'floor.cjs', floorRequire, `${process.execPath}.cache`, { wrapped: true });
