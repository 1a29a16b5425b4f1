// Runs a floor bundle as wes runs its chunks: wes's V8 flag set first (src/runtime/v8-flags.ts;
// V8 keys a code cache by the flags in force), then compiled through wes's own code cache
// (src/runtime/code-cache.ts) in `cacheDir`, so the floors pay what wes pays to load code. ASCII
// text is decoded as Latin-1 (a one-byte string), as wes's single executable decodes an ASCII chunk.
import { isAscii } from 'node:buffer';
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { cachedCompiler } from '../../../src/runtime/code-cache.js';
import { setV8Flags } from '../../../src/runtime/v8-flags.js';

/**
 * Runs `bytes` (a CommonJS bundle) as the module `filename`, its `require` the one given, with its
 * code cache in `folder`/code: wes keeps a build's cache in a folder whose siblings are other
 * builds' caches, and its first save there removes older siblings. `wrapped`: the bytes are the
 * bundle already in its function wrapper (Module.wrap), as wes's single executable holds its
 * modules (scripts/build-sea.mjs), so no second copy is made by wrapping it here.
 */
export function runCached(bytes, filename, require, folder, { wrapped = false } = {}) {
  const cacheDir = join(folder, 'code');
  setV8Flags();
  const text = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  const source = wrapped ? text : Module.wrap(text);
  const compile = cachedCompiler(cacheDir);
  // Only a folder another user may write to has none: compiled from source, the floor would not be one.
  if (!compile) throw new Error(`${cacheDir}: not a folder of this user's alone, so no code cache`);
  const script = compile(source, filename, 'floor');
  const module = { exports: {} };
  script.runInThisContext()(module.exports, require, module, filename, dirname(filename));
}
