// WES_BLAKE3 is read from the environment the program is given, not from process.env: an
// in-process run (and a library caller passing its own env) that forces the WASM fallback gets it.
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { needsProcess, runWes } from '../helpers/cli.js';

function nativeInstalled(): boolean {
  try {
    createRequire(import.meta.url)('@napi-rs/blake-hash');
    return true;
  } catch {
    return false;
  }
}

describe('WES_BLAKE3 from the given environment', () => {
  it('an in-process run with WES_BLAKE3=wasm hashes with the fallback, and the next run without it does not', async () => {
    const forced = { WES_BLAKE3: 'wasm' };
    expect(needsProcess({ env: forced })).toBe(false);
    const wasm = await runWes(['version', '--json'], { env: forced });
    expect(wasm.code, wasm.stderr).toBe(0);
    expect(JSON.parse(wasm.stdout).blake3).toBe('wasm');
    const saved = process.env.WES_BLAKE3;
    process.env.WES_BLAKE3 = 'wasm';
    try {
      // The process says wasm, the given env says nothing: the given env wins.
      const plain = await runWes(['version', '--json'], { env: { WES_BLAKE3: undefined } });
      expect(JSON.parse(plain.stdout).blake3).toBe(nativeInstalled() ? 'native' : 'wasm');
    } finally {
      if (saved === undefined) delete process.env.WES_BLAKE3;
      else process.env.WES_BLAKE3 = saved;
    }
  });
});
