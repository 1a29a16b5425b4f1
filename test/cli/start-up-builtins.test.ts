// The build leaves out Node modules that dependencies load but wes never uses (see
// skipUnusedBuiltins in scripts/build-plugins.mjs): node:http2 for undici, node:child_process for
// commander, node:http for undici (test/http/undici-lazy-http.test.ts checks that edit; undici's
// HTTP/2 client, which loads http2, is left out: test/http/undici-trimmed.test.ts), and the
// HTTP client times requests without node:perf_hooks. This checks the built CLI makes a request
// without loading them, and pins the dependency sources the build relies on, so an upgrade that
// changes them fails here.
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst } from './jobs-env.js';

const require = createRequire(import.meta.url);
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

  it('commander only spawns from child_process', () => {
    const command = readFileSync(join(dirname(require.resolve('commander')), 'lib/command.js'), 'utf8');
    const uses = command.match(/childProcess\.\w+/g) ?? [];
    expect(uses.length).toBeGreaterThan(0);
    expect(new Set(uses)).toEqual(new Set(['childProcess.spawn']));
  });
});
