// Hashes one file with one blake3 implementation, streaming 1 MiB reads as wes does, and prints
// {impl, bytes, hash_ms, hex} as JSON. Used by the blake3 case, one process per run, so module
// loading and WASM compilation stay out of the hashing time but inside the process's wall time.
//   node hash-file.mjs <impl> <file> [module-dir]
//   impl: wes (the bundled src/files/blake3.ts, module-dir = the bundle; WES_BLAKE3=wasm forces its
//   fallback), blake3-jit, noble, blake3-wasm
import { createReadStream, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [impl, file, moduleDir] = process.argv.slice(2);
const fromDir = (spec) => createRequire(join(moduleDir, 'noop.js')).resolve(spec);
const load = async (spec) => import(pathToFileURL(fromDir(spec)).href);
const hex = (bytes) => Buffer.from(bytes).toString('hex');

/** Each loader returns { update(chunk), digestHex() } with its WASM (if any) ready. */
const LOADERS = {
  async wes() {
    const { blake3File, blake3Backend } = await import(pathToFileURL(moduleDir).href);
    return { backend: blake3Backend(), whole: async (path) => (await blake3File(path)).replace(/^blake3:/, '') };
  },
  async 'blake3-jit'() {
    const { createHasher } = await load('blake3-jit');
    const hasher = createHasher();
    return { update: (c) => hasher.update(c), digestHex: () => hex(hasher.finalize()) };
  },
  async noble() {
    const { blake3 } = await load('@noble/hashes/blake3.js');
    const hasher = blake3.create();
    return { update: (c) => hasher.update(c), digestHex: () => hex(hasher.digest()) };
  },
  async 'blake3-wasm'() {
    const mod = await load('blake3-wasm');
    await mod.load?.();
    const hasher = mod.createHash();
    return { update: (c) => hasher.update(c), digestHex: () => hasher.digest('hex') };
  },
};

const hasher = await LOADERS[impl]();
const started = process.hrtime.bigint();
let bytes = 0;
let digest;
if (hasher.whole) {
  digest = await hasher.whole(file);
  bytes = statSync(file).size;
} else {
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    hasher.update(chunk);
    bytes += chunk.length;
  }
  digest = hasher.digestHex();
}
const hashMs = Number(process.hrtime.bigint() - started) / 1e6;
process.stdout.write(`${JSON.stringify({ impl, backend: hasher.backend, bytes, hash_ms: hashMs, hex: digest })}\n`);
