// The CLI's shared modules are in few chunks (programFirst in scripts/build-plugins.mjs): each
// module costs its resolve, read and compile on every start. This counts the modules the built CLI
// loads for `jobs get` and `--help`, and checks the library entry still loads no CLI code
// (program, commander, the CLI factory) although every command module now imports program and cli-factory.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bytesWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst } from './jobs-env.js';

const HOOK = join(import.meta.dirname, '../fixtures/start-up/list-loaded-modules.cjs');
const DIST = resolve(import.meta.dirname, '../../dist');

function loaded(list: string): string[] {
  const urls = existsSync(list) ? readFileSync(list, 'utf8').split('\n') : [];
  const files = [...new Set(urls.filter((url) => url.startsWith('file:') && url.includes('/dist/')))].map((url) => fileURLToPath(url));
  rmSync(list, { force: true });
  return files;
}

describe('modules loaded by the built CLI', () => {
  const ctx = useDevServer({});
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();
  const env = (list: string) => ({ NODE_OPTIONS: `--require ${HOOK}`, WES_TEST_MODULES_FILE: list });

  it('`jobs get` loads few chunks, and `--help` fewer', async () => {
    const id = (await submitJob(ctx.server, bytesWorkflow(64))).body.id as string;
    await waitForJob(ctx.server, `/api/v2/jobs/${id}`, ['succeeded']);
    const list = join(dir(), 'modules.txt');
    const get = await wes(['jobs', 'get', id, '--json'], { spawn: true, env: env(list) });
    expect(get.code, get.stderr).toBe(0);
    const forGet = loaded(list);
    expect(forGet.some((f) => readFileSync(f, 'utf8').includes('node_modules/undici/lib/dispatcher/agent.js'))).toBe(true);
    expect(forGet.length).toBeLessThanOrEqual(27); // 16 when written; 37 before the chunks were merged; 22 since the verb modules and src/features (issue 30), at no measured cost: jobs get --json 0.114 s against 0.116 s wall before, medians of 25 interleaved runs; 24 since the job API deployments (issue 35: the job client's dialect modules load on first use, which splits its chunk); 26 since `wes mcp` shares the job and file modules with the verbs (esbuild gives the shared modules chunks of their own: the same source in more files; jobs list 716 M to 719-730 M instructions under callgrind); 27 since the models features and the one follow shape (src/features/follow.ts, shared by the job, prompt and model follows): jobs get --json 272.3 and 279.6 M instructions against 267.3 M before, callgrind without the CA bundle, one run each holding Node's random hash-seed search

    const help = await wes(['--help'], { spawn: true, env: env(list) });
    expect(help.code).toBe(0);
    expect(loaded(list).length).toBeLessThanOrEqual(11); // 8 when written; 20 before; 11 since src/util/sea-host.ts (1.4 KB: which build runs, for the single executable) has a chunk of its own
  });

  // src/runtime/built-modules.ts: once main runs, a chunk's `require("./chunk-X.js")` is joined as
  // text and read into one buffer, not resolved (stats, realpath, package scope) by Node. Node's
  // module debug log names each request it resolves itself; only cli.js's own imports, loaded
  // before main, and undici's WebAssembly file (not a module) are left to it.
  it('`jobs get` leaves the resolution of its chunks to Node only for the few cli.js imports before main', async () => {
    const id = (await submitJob(ctx.server, bytesWorkflow(64))).body.id as string;
    await waitForJob(ctx.server, `/api/v2/jobs/${id}`, ['succeeded']);
    const get = await wes(['jobs', 'get', id, '--json'], { spawn: true, env: { NODE_DEBUG: 'module' } });
    expect(get.code, get.stderr.slice(-2000)).toBe(0);
    const loadedFromDist = get.stderr.split('\n').filter((line) => /^MODULE \d+: load "[^"]*[/\\]dist[/\\][^"]*\.js"/.test(line));
    const resolvedByNode = get.stderr.split('\n').filter((line) => /RELATIVE: requested: \.\/\S+\.js from parent\.id \S*[/\\]dist[/\\]/.test(line));
    expect(loadedFromDist.length).toBeGreaterThan(20);
    expect(resolvedByNode.length, resolvedByNode.join('\n')).toBeLessThanOrEqual(7); // 7 as written (cli.js's five imports and two of theirs); 37 before
  });

  // A submit alone loaded the follow path (events, downloads, the progress view and its tables)
  // and the engine's client for --convert and --set checks: 84 modules, 1.06 MB of text.
  it('`jobs submit` without --wait, --convert or --set loads no follow, table or engine module', async () => {
    const list = join(dir(), 'submit.txt');
    const flow = join(dir(), 'flow.json');
    writeFileSync(flow, JSON.stringify(bytesWorkflow(64)));
    const res = await wes(['jobs', 'submit', flow, '--quiet'], { spawn: true, env: env(list) });
    expect(res.code, res.stderr).toBe(0);
    const files = loaded(list);
    expect(files.length).toBeLessThanOrEqual(64); // 64 as written; 84 before
    for (const file of files) {
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/^\/\/ (src\/features\/jobs\/watch\.ts|src\/commands\/jobs\/follow-view\.ts|node_modules\/cli-table3\/|node_modules\/eventsource-parser\/|src\/clients\/legacy\/client\.ts|src\/command-kit\/workflows\/conversion\.ts)/m);
    }
  });

  it('the library entry loads none of the CLI', () => {
    const list = join(dir(), 'library.txt');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(join(DIST, 'index.js'))})`], { env: { ...process.env, ...env(list) }, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const files = loaded(list);
    expect(files).toContain(join(DIST, 'index.js'));
    for (const file of files) expect(readFileSync(file, 'utf8'), file).not.toMatch(/^\/\/ (src\/program\.ts|src\/factory\.ts|src\/cli-factory\.ts|node_modules\/commander\/)/m);
  });
});
