// runWes runs in-process unless the options need a process of their own: NODE_* variables are read
// by Node as it starts. WES_BLAKE3 is read from the env the program is given, so it runs in-process.
import { describe, expect, it } from 'vitest';
import { needsProcess } from '../helpers/cli.js';

describe('needsProcess', () => {
  it('spawns for variables read from the process environment', () => {
    expect(needsProcess({ env: { NODE_OPTIONS: '--no-warnings' } })).toBe(true);
  });

  it('runs in-process for command settings and plain options', () => {
    expect(needsProcess({ env: { WES_BASE_URL: 'http://127.0.0.1:1', WES_API_KEY: 'k' } })).toBe(false);
    expect(needsProcess({ env: { WES_BLAKE3: 'wasm' } })).toBe(false);
    expect(needsProcess({})).toBe(false);
    expect(needsProcess({ spawn: true })).toBe(true);
    expect(needsProcess({ cwd: '/' })).toBe(true);
  });
});
