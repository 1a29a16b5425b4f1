// The build leaves out Node modules that dependencies load but wes never uses: node:http2 and
// node:http for undici (the no-h2 and lazy-http hunks of patches/undici@<version>.patch, checked
// by test/http/undici-trimmed.test.ts and undici-lazy-http.test.ts), node:assert for undici and
// node:child_process for commander (the lazy-assert and lazy-child-process substitutions of
// scripts/build-plugins.mjs), and the HTTP client times requests without node:perf_hooks. This
// checks the built CLI makes a request without loading them, and that commander's child_process
// still works when it is used.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error the build's plugins are plain JavaScript
import { substitutions } from '../../scripts/build-plugins.mjs';
import { bytesWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst } from './jobs-env.js';

const PRELOAD = join(import.meta.dirname, '../fixtures/start-up/list-loaded-builtins.cjs');

describe('start-up of the built CLI', () => {
  const ctx = useDevServer({});
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('`jobs get` answers without loading node:http2, node:tls, node:child_process, node:http, node:perf_hooks, node:assert or node:crypto', async () => {
    const id = (await submitJob(ctx.server, bytesWorkflow(1024))).body.id as string;
    await waitForJob(ctx.server, `/api/v2/jobs/${id}`, ['succeeded']);
    const list = join(dir(), 'builtins.txt');
    const res = await wes(['jobs', 'get', id, '--json'], { env: { NODE_OPTIONS: `--require ${PRELOAD}`, WES_TEST_BUILTINS_FILE: list } });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).id).toBe(id);
    const loaded = readFileSync(list, 'utf8').split('\n');
    rmSync(list);
    expect(loaded).toContain('NativeModule net'); // the list is real: a request was made
    for (const name of ['http2', 'tls', 'child_process', 'http', 'perf_hooks', 'assert', 'crypto']) expect(loaded).not.toContain(`NativeModule ${name}`);
  });

  it("commander's child_process loads when first used, and is all of node:child_process", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wes-lazy-child-process-'));
    try {
      // A file where the substitution applies: commander's own.
      const command = join(dir, 'commander', 'lib', 'command.js');
      mkdirSync(dirname(command), { recursive: true });
      writeFileSync(command, "module.exports = require('node:child_process');");
      const out = join(dir, 'bundle.cjs');
      await build({ entryPoints: [command], outfile: out, bundle: true, platform: 'node', format: 'cjs', plugins: [substitutions()], logLevel: 'error' });
      const run = spawnSync(process.execPath, ['-e', `const cp = require(${JSON.stringify(out)}); const before = process.moduleLoadList.includes('NativeModule child_process'); const said = cp.execFileSync(process.execPath, ['-e', 'process.stdout.write("spawned")'], { encoding: 'utf8' }); console.log(JSON.stringify({ before, said, spawn: typeof cp.spawn }))`], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ before: false, said: 'spawned', spawn: 'function' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
