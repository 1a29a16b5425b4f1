// Every `wes legacy` command run in-process against `dev-server --surface self-hosted
// --engine-only`, which answers as a ComfyUI engine: no status route, plain-text 404s, history.
// The tests run side by side: those that run prompts (the engine's one queue), interrupt them or
// count requests have a server of their own; the others share the file's server, which each of
// them only reads (or uploads a file of its own name to). Every run has a config folder of its own.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DevServerHandle, DevServerOptions } from '../../src/dev-server/index.js';
import { encodePng } from '../../src/dev-server/engine/png.js';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { failingWorkflow, longWorkflow, sampleWorkflow, submit, v1 } from '../dev-server/legacy-kit.js';
import { countOf, until, useLegacyServer, useLegacyServerPerTest } from './legacy-kit.js';

const ENGINE: DevServerOptions = { deployment: 'self-hosted', engineOnly: true, stepMs: 3 };
const kit = useLegacyServer(ENGINE, 'wes-engine-');
/** An engine of the test's own (its queue, its request counts), and wes against it. */
const own = useLegacyServerPerTest(ENGINE, 'wes-engine-');

async function queued(server: DevServerHandle, id: string): Promise<boolean> {
  const { body } = await v1(server, 'GET', '/api/queue');
  return [...body.queue_running, ...body.queue_pending].some((e: unknown[]) => e[1] === id);
}

async function running(server: DevServerHandle, id: string): Promise<boolean> {
  return (await v1(server, 'GET', '/api/queue')).body.queue_running.some((e: unknown[]) => e[1] === id);
}

describe.concurrent('wes legacy against a self-hosted engine: reading', () => {
  it('object-info lists classes, shows one, and exits 5 "no such node class" on the engine\'s {}', async () => {
    const all = await kit.wes(['legacy', 'object-info']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toMatch(/^EmptyImage\t/m);
    const one = await kit.wes(['legacy', 'object-info', 'EmptyImage']);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^width\tINT\t/m);
    const none = await kit.wes(['legacy', 'object-info', 'EmptyImag']);
    expect(none.code).toBe(5);
    expect(none.stderr).toContain('no such node class "EmptyImag"');
    expect(none.stderr).toContain('did you mean EmptyImage?');
  });

  it('upload prints the name to use in a LoadImage node', async () => {
    const path = join(kit.dir, 'cat.png');
    writeFileSync(path, encodePng({ width: 2, height: 2, data: new Uint8Array(12) }));
    const res = await kit.wes(['legacy', 'upload', path]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe('cat.png');
  });

  it('doctor names the engine and its version, and the surfaces it lacks are warnings, not failures', async () => {
    const res = await runWes(['doctor', '--json'], { env: { WES_BASE_URL: kit.server.url } });
    expect(res.code, res.stdout).toBe(0);
    const checks = JSON.parse(res.stdout) as Array<{ check: string; surface: string | null; status: string; detail: string }>;
    const legacy = checks.find((c) => c.check === 'reachable' && c.surface === 'legacy')!;
    expect(legacy.detail).toMatch(/answered in \d+ ms: a self-hosted ComfyUI engine \(0\.3\.18\)$/);
    expect(checks.find((c) => c.check === 'reachable' && c.surface === 'jobs')).toMatchObject({ status: 'warn', detail: expect.stringContaining('has no job API v2') });
  });

  it('probes the engine once per base URL and remembers it in the cache folder', async () => {
    const t = await own();
    const cfg = tempConfigDir();
    try {
      const before = countOf(t.server, 'GET /api/system_stats');
      const id = await submit(t.server, sampleWorkflow(1));
      for (let i = 0; i < 2; i++) {
        const res = await t.wes(['legacy', 'status', id], { configDir: cfg.dir });
        expect(res.code, res.stderr).toBe(0);
      }
      expect(countOf(t.server, 'GET /api/system_stats') - before).toBe(1);
      expect(countOf(t.server, 'GET /api/job/' + id + '/status')).toBe(0); // known as an engine before the first read
    } finally {
      cfg.cleanup();
    }
  });
});

describe.concurrent('wes legacy against a self-hosted engine: running prompts', () => {
  it('prompt --wait, status and status --wait take the state from the engine\'s queue and history', async () => {
    const t = await own();
    const res = await t.wes(['legacy', 'prompt', t.file('ok.json', sampleWorkflow(2)), '--wait']);
    expect(res.code, res.stderr).toBe(0);
    const id = res.stdout.trim();
    expect(res.stderr).toContain(`prompt ${id}: success`);
    expect(res.stderr).not.toContain('unreadable response');
    const status = await t.wes(['legacy', 'status', id, '--json']);
    expect([status.code, JSON.parse(status.stdout)]).toEqual([0, { status: 'success' }]);
    const waited = await t.wes(['legacy', 'status', id, '--wait']);
    expect([waited.code, waited.stdout.trim()]).toEqual([0, 'success']);
    const unknown = await t.wes(['legacy', 'status', '11111111-2222-3333-4444-555555555555']);
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toContain("no prompt 11111111-2222-3333-4444-555555555555 in the engine's queue or history");
  });

  it('a prompt that fails exits 3 with the engine\'s error, by REST (--wait) and by WebSocket (watch)', async () => {
    const t = await own();
    const res = await t.wes(['legacy', 'prompt', t.file('fail.json', failingWorkflow('out of cheese')), '--wait']);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/failed in node 1 \(Fail\): \w+: out of cheese/);
    const id = res.stdout.trim();
    const watched = await t.wes(['legacy', 'watch', id]);
    expect(watched.code).toBe(3);
    expect(watched.stdout.trim()).toBe('error');
  });

  it('prompt --ws --download saves the outputs the engine\'s history names, and view fetches one (200, no redirect)', async () => {
    const t = await own();
    const out = join(t.dir, 'out');
    const res = await t.wes(['legacy', 'prompt', t.file('dl.json', sampleWorkflow(3, 'engine')), '--ws', '--download', out]);
    expect(res.code, res.stderr).toBe(0);
    const names = readdirSync(out);
    expect(names).toEqual([expect.stringMatching(/^engine_\d+_\.png$/)]);
    const viewed = join(t.dir, 'viewed.png');
    const view = await t.wes(['legacy', 'view', names[0]!, '-o', viewed]);
    expect(view.code, view.stderr).toBe(0);
    expect(readFileSync(viewed)).toEqual(readFileSync(join(out, names[0]!)));
    const missing = await t.wes(['legacy', 'view', 'nope.png', '-o', join(t.dir, 'nope.png')]);
    expect(missing.code).toBe(5);
    // A real 0.3.18 and 0.3.64 answer a missing file with an empty 404: wes names what it asked for.
    expect(missing.stderr).toContain('error: no output file "nope.png" on the server');
    const input = await t.wes(['legacy', 'view', 'nope.png', '--type', 'input', '--subfolder', 'sub', '-o', join(t.dir, 'nope.png')]);
    expect(input.code).toBe(5);
    expect(input.stderr).toContain('error: no input file "nope.png" in the subfolder "sub" on the server');
    expect(input.stderr).toContain('hint: check the name, --type');
  });

  it('prompt --ws ends on the engine\'s own messages (sent to its client id), not on a status read', async () => {
    const t = await own();
    // Reading the status once an hour: the prompt ends only because the socket's messages ended it.
    const res = await t.wes(['legacy', 'prompt', t.file('ws.json', sampleWorkflow(2)), '--ws', '--interval', '3600']);
    expect(res.code, res.stderr).toBe(0);
    const id = res.stdout.trim();
    expect(t.server.state.engine.get(id)!.extraData.client_id).toEqual(expect.any(String));
    expect(res.stderr.match(new RegExp(`prompt ${id}: success`, 'g'))).toHaveLength(1); // one end line
  });

  it('watch of a prompt submitted elsewhere (its messages go to that client) ends by REST: exit 10 when interrupted', async () => {
    const t = await own();
    const id = await submit(t.server, longWorkflow('stop', 8));
    await until(() => running(t.server, id));
    const sockets = countOf(t.server, 'GET /ws');
    const watching = t.wes(['legacy', 'watch', id]);
    await until(() => countOf(t.server, 'GET /ws') > sockets);
    const interrupt = await t.wes(['legacy', 'interrupt', id]);
    expect(interrupt.code, interrupt.stderr).toBe(0);
    expect(interrupt.stderr).toContain(`interrupted ${id}`);
    const watched = await watching;
    expect(watched.code, watched.stderr).toBe(10);
    expect(watched.stderr).toContain(`prompt ${id} was cancelled`);
    // Seen against a real 0.3.18: the hint spoke of "the queued request" and "run the model again" (the router's words).
    expect(watched.stderr).toContain('hint: it was interrupted on the server (`wes legacy interrupt`, or Cancel in the editor)');
    expect(watched.stderr).not.toContain('run the model again');
    expect(watched.stderr).not.toContain(`prompt ${id}: cancelled`); // one end line: the error (stdout says it as data)
    const status = await t.wes(['legacy', 'status', id, '--wait']);
    expect([status.code, status.stdout.trim()]).toEqual([10, 'cancelled']);
  });

  it('queue shows the engine\'s tuples; queue delete takes a pending prompt away (a waiting status says cancelled)', async () => {
    const t = await own();
    const first = await submit(t.server, longWorkflow('first', 3));
    const second = await submit(t.server, longWorkflow('second', 1));
    const queue = await t.wes(['legacy', 'queue']);
    expect(queue.code).toBe(0);
    expect(queue.stdout).toMatch(new RegExp(`^pending\\t\\d+\\t${second}\\t`, 'm'));
    const reads = countOf(t.server, 'GET /api/queue');
    const waiting = t.wes(['legacy', 'status', second, '--wait', '--interval', '0.05']);
    // Its second read of the queue: the first one's answer (the prompt pending) has been taken in.
    await until(() => countOf(t.server, 'GET /api/queue') > reads + 1, 'the waiting status to read the queue twice');
    const deleted = await t.wes(['legacy', 'queue', 'delete', second]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stderr).toContain(`deleted 1 pending prompt(s): ${second}`);
    expect(await queued(t.server, second)).toBe(false);
    const waited = await waiting;
    expect([waited.code, waited.stdout.trim()]).toEqual([10, 'cancelled']);
    await t.wes(['legacy', 'interrupt']);
    await until(async () => !(await queued(t.server, first)));
  });
});

describe.concurrent('wes legacy against a self-hosted engine: refusals and the wrong API', () => {
  it('reports a refused workflow of each node_errors shape (exit 6)', async () => {
    const unknown = await kit.wes(['legacy', 'prompt', kit.file('unknown.json', { '1': { class_type: 'NoSuchClass', inputs: {} } })]);
    expect(unknown.code).toBe(6);
    expect(unknown.stderr).toContain('error: Cannot execute because node NoSuchClass does not exist.');
    const invalid = await kit.wes(['legacy', 'prompt', kit.file('invalid.json', { ...sampleWorkflow(), '3': { class_type: 'SaveImage', inputs: { filename_prefix: 'x' } } })]);
    expect(invalid.code).toBe(6);
    expect(invalid.stderr).toContain('error: Prompt outputs failed validation');
    expect(invalid.stderr).toMatch(/^3\tSaveImage\trequired_input_missing\tRequired input is missing\timages$/m);
    const noOutputs = await kit.wes(['legacy', 'prompt', kit.file('no-out.json', { '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0 } } })]);
    expect(noOutputs.code).toBe(6);
    expect(noOutputs.stderr).toContain('error: Prompt has no outputs');
  });

  it('wes jobs on the engine says in one sentence to use wes legacy (exit 5)', async () => {
    const res = await runWes(['jobs', 'submit', kit.file('v2.json', sampleWorkflow())], { env: { WES_BASE_URL: kit.server.url } });
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('error: this server is a self-hosted ComfyUI engine (0.3.18), which has no job API v2: use `wes legacy` with it');
    const get = await runWes(['jobs', 'get', '00000000-0000-0000-0000-000000000000'], { env: { WES_BASE_URL: kit.server.url, WES_ENGINE: 'self-hosted' } });
    expect(get.code).toBe(5);
    expect(get.stderr).toContain('this server is a self-hosted ComfyUI engine, which has no job API v2');
  });

  it('with --engine cloud, the engine\'s empty 404 is reported as HTTP 404 with a hint, never as unreadable', async () => {
    const t = await own();
    const id = await submit(t.server, sampleWorkflow(1));
    const status = await t.wes(['--engine', 'cloud', 'legacy', 'status', id]);
    expect(status.code).toBe(5);
    expect(status.stderr).toContain('error: HTTP 404 not found');
    expect(status.stderr).toContain('hint: the server has no status route, as a self-hosted ComfyUI engine has none');
    expect(status.stderr).not.toContain('unreadable');
    const watch = await t.wes(['legacy', 'watch', id], { env: { WES_ENGINE: 'cloud' } });
    expect(watch.code).toBe(5);
    expect(watch.stderr).not.toContain('unreadable');
    const bad = await t.wes(['legacy', 'status', id], { env: { WES_ENGINE: 'comfy' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('WES_ENGINE must be one of auto, cloud, self-hosted, got "comfy"');
  });
});
