// runWes runs in-process unless the options need a process of their own: NODE_* variables are read
// by Node as it starts. WES_BLAKE3 is read from the env the program is given, so it runs in-process.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { childProcessEnv, needsProcess, spawnWes } from '../helpers/cli.js';

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

describe("the host's own settings", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("a wes process started by a test does not get the machine's NODE_EXTRA_CA_CERTS (parsed at every start); one a test names, it does", async () => {
    vi.stubEnv('NODE_EXTRA_CA_CERTS', '/nonexistent/host-bundle.pem');
    expect(childProcessEnv().NODE_EXTRA_CA_CERTS).toBeUndefined();
    const script = ['-e', 'process.stdout.write(String(process.env.NODE_EXTRA_CA_CERTS))'];
    expect((await spawnWes([], { program: [process.execPath, ...script] })).stdout).toBe('undefined');
    expect((await spawnWes([], { program: [process.execPath, ...script], env: { NODE_EXTRA_CA_CERTS: '/named/by/the/test.pem' } })).stdout).toBe('/named/by/the/test.pem');
  });
});
