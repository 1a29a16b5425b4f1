// blake3 with the fastest implementation this machine can load: the native binding
// (@napi-rs/blake-hash, an optional dependency with a prebuilt addon per platform; ~9 GB/s here)
// and, when it is not installed or cannot load, hash-wasm (~1 GB/s). WES_BLAKE3=wasm forces the
// fallback (CI runs the suite both ways). Used by the client and the dev-server alike.
// WES_BLAKE3 comes from the environment a run was given, as a HashSetting passed down to each
// hash (the Factory's hashing(), blake3-setting.ts); without one, the process's own environment
// (the dev-server, a library caller). Only the loaded native module is kept for the process.
import { createRequire } from 'node:module';
import { readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { hashSettingFrom, type HashSetting } from './blake3-setting.js';
import { seaHost } from './sea-host.js';

/** An incremental hasher: feed it bytes (a file's prefix from disk, then a stream), then digest. */
export interface Blake3 {
  update(data: Uint8Array): void;
  /** Lowercase hex of the 32-byte digest. */
  hex(): string;
}

export type Blake3Backend = 'native' | 'wasm';

interface NativeHasher {
  update(data: Uint8Array): unknown;
  digest(format: 'hex'): string;
}
type NativeModule = { Blake3Hasher: new () => NativeHasher };

let native: NativeModule | null | undefined;

/** The native module, or null when it cannot load (or the fallback is forced); loaded once, on first use. */
function loadNative(setting: HashSetting = hashSettingFrom(process.env)): NativeModule | null {
  if (setting.forceWasm) return null;
  if (native === undefined) {
    try {
      const file = nativeBlake3File();
      native = file ? (createRequire(import.meta.url)(file) as NativeModule) : null;
    } catch {
      native = null;
    }
  }
  return native;
}

/**
 * The file of the native binding: the package's entry in the npm build, the addon embedded in the
 * single executable (written once to wes's cache folder: src/runtime/sea-loader.ts); undefined
 * when there is none. Throws when the package is not installed.
 */
export function nativeBlake3File(): string | undefined {
  const sea = seaHost();
  if (sea) return sea.nativeBlake3 ? sea.assetFile(sea.nativeBlake3) : undefined;
  return createRequire(import.meta.url).resolve('@napi-rs/blake-hash');
}

/** Which implementation createBlake3 uses under `setting` (default: the process's environment). */
export function blake3Backend(setting?: HashSetting): Blake3Backend {
  return loadNative(setting) ? 'native' : 'wasm';
}

export async function createBlake3(backend: Blake3Backend = blake3Backend()): Promise<Blake3> {
  const mod = backend === 'native' ? loadNative() : null;
  if (mod) {
    const hasher = new mod.Blake3Hasher();
    return { update: (data) => void hasher.update(data), hex: () => hasher.digest('hex') };
  }
  const hasher = await (await loadWasm())();
  return { update: (data) => void hasher.update(data), hex: () => hasher.digest('hex') };
}

/** Each read of a file being hashed: small enough that the hash finds the bytes still in the core's cache. */
const READ_BYTES = 256 * 1024;
/** Reads between two turns of the event loop (so a long hash does not hold up timers and sockets). */
const READS_PER_TURN = 16;

/**
 * Feeds bytes [start, end) of a file (a path, or a handle left open) into `hasher`, in 256 KiB
 * synchronous reads into one buffer used again, letting the event loop turn every 4 MiB. Fresh
 * memory for every read cost more in page faults than the hash (64 MiB: 68-119 ms with a stream's
 * new buffers, 24-56 ms reusing one); 1 MiB reads through the thread pool, one promise each, cost
 * 256 MiB 112-117 ms against 104-107 ms this way (bench/RESULTS.md, issue 31). Returns the bytes hashed.
 */
export async function updateFromFile(hasher: Blake3, file: string | FileHandle, start = 0, end = Infinity): Promise<number> {
  if (end <= start) return 0;
  const handle = typeof file === 'string' ? await open(file, 'r') : file;
  try {
    const buffer = Buffer.allocUnsafe(READ_BYTES);
    let position = start;
    for (let reads = 1; position < end; reads++) {
      const n = readSync(handle.fd, buffer, 0, Math.min(READ_BYTES, end - position), position);
      if (n === 0) break;
      hasher.update(n === READ_BYTES ? buffer : buffer.subarray(0, n));
      position += n;
      if (reads % READS_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return position - start;
  } finally {
    if (handle !== file) await handle.close();
  }
}

/** hash-wasm's factory, loaded only when needed. Its package is CommonJS (UMD) to the bundler, so
 * a dynamic import of the bundle sees it under `default`. */
async function loadWasm(): Promise<typeof import('hash-wasm').createBLAKE3> {
  const mod = (await import('hash-wasm')) as typeof import('hash-wasm') & { default?: typeof import('hash-wasm') };
  return mod.createBLAKE3 ?? mod.default!.createBLAKE3;
}

/** `blake3:<hex>` of a whole file. */
export async function blake3OfFile(path: string, backend?: Blake3Backend): Promise<string> {
  const hasher = await createBlake3(backend);
  await updateFromFile(hasher, path);
  return `blake3:${hasher.hex()}`;
}
