// Queued delivery from the command line, end to end against the dev-server's published routes:
// `models run --queue` prints the request id (and records it), `models status`, `models result`
// (exit 8 before the result is ready; --wait follows it), `models cancel`, `models requests`,
// @last / @N, the option rules, and an interrupted or timed-out wait that names the command that
// collects the request later.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureQueue } from '../../src/dev-server/models/index.js';
import { runWes, tempConfigDir, type RunOptions } from '../helpers/cli.js';
import { useServerPerTest } from '../helpers/dev-server.js';
import { until } from '../helpers/until.js';
import { interruptWhen } from './jobs-env.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let work: string;
const cleanups: Array<() => void> = [];
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'wes-models-queue-'));
});
afterAll(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  rmSync(work, { recursive: true, force: true });
});

/**
 * A dev-server and a config folder (and so a request history, which @last reads) for one test: the
 * tests run side by side, each mostly waiting on its requests.
 */
const ownServer = useServerPerTest({ catalogSize: 20 });
async function own() {
  const server = await ownServer();
  const config = tempConfigDir();
  cleanups.push(config.cleanup);
  const wes = (args: string[], opts: RunOptions = {}) => runWes(args, { configDir: config.dir, ...opts, env: { WES_BASE_URL: server.url, WES_API_KEY: 'wes-dev-key', ...opts.env } });
  async function queued(body: object, model = 'dev/slow'): Promise<string> {
    const r = await wes(['models', 'run', model, '-d', JSON.stringify(body), '--queue']);
    expect(r.code, r.stderr).toBe(0);
    return r.stdout.trim();
  }
  return { server, wes, queued };
}

describe.concurrent('models run --queue', () => {
  it('prints only the request id on stdout (the handle with --json), says how to follow it, and records it', async () => {
    const t = await own();
    const r = await t.wes(['models', 'run', 'dev/slow', '-d', '{"prompt":"one","duration_ms":300}', '--queue']);
    expect(r.code, r.stderr).toBe(0);
    const id = r.stdout.trim();
    expect(id).toMatch(UUID);
    expect(r.stdout).toBe(`${id}\n`);
    expect(r.stderr).toContain(`queued dev/slow as request ${id}`);
    expect(r.stderr).toContain(`follow it with: wes models status dev/slow ${id}\ncollect it with: wes models result dev/slow ${id} --wait`);
    const asJson = await t.wes(['models', 'run', 'dev/echo', '-d', '{"a":1}', '--queue', '--json']);
    const handle = JSON.parse(asJson.stdout);
    expect(handle).toMatchObject({ request_id: expect.stringMatching(UUID), status: expect.any(String), status_url: expect.stringContaining('/v2/models/dev/echo/requests/') });
    const listed = await t.wes(['models', 'requests', '--json']);
    const entries = JSON.parse(listed.stdout) as Array<{ request_id: string; model: string }>;
    expect(entries.slice(0, 2).map((e) => [e.request_id, e.model])).toEqual([[handle.request_id, 'dev/echo'], [id, 'dev/slow']]);
  });

  it('--wait follows the request and collects its output into -o; the history says COMPLETED', async () => {
    const t = await own();
    const out = join(work, 'slow.json');
    const r = await t.wes(['models', 'run', 'dev/slow', '-d', '{"prompt":"wait","duration_ms":1500}', '--queue', '--wait', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ prompt: 'wait', duration_ms: 1500 });
    expect(r.stderr).toMatch(/dev\/slow [0-9a-f]{8}: running \(asking again in 1 s\)/);
    expect(r.stderr).toContain(`wrote the output of dev/slow to ${out}`);
    const status = await t.wes(['models', 'status', '@last', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ status: 'COMPLETED' });
    const listed = await t.wes(['models', 'requests']);
    expect(listed.stdout.split('\n')[0]).toMatch(/\tdev\/slow\tCOMPLETED\t/);
  });

  it('--wait --download saves the files an output links to', async () => {
    const t = await own();
    const dir = join(work, 'images');
    const r = await t.wes(['models', 'run', 'dev/image', '-i', 'prompt=fox', '-i', 'width=64', '-i', 'height=64', '-i', 'num_images=2', '--queue', '--wait', '--download', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it('is refused where it cannot work: -o without --wait, --wait without --queue, v1 pinned', async () => {
    const t = await own();
    const noWait = await t.wes(['models', 'run', 'dev/echo', '-d', '{}', '--queue', '-o', join(work, 'x.json')]);
    expect(noWait.code).toBe(2);
    expect(noWait.stderr).toMatch(/--output with --queue needs --wait \(or collect the output later with `wes models result MODEL REQUEST_ID --output \.\.\.`\)/);
    const waitAlone = await t.wes(['models', 'run', 'dev/echo', '-d', '{}', '--wait']);
    expect(waitAlone.code).toBe(2);
    expect(waitAlone.stderr).toMatch(/--wait only applies with --queue/);
    const pinned = await t.wes(['--router-api', 'v1', 'models', 'run', 'dev/echo', '-d', '{}', '--queue']);
    expect(pinned.code).toBe(2);
    expect(pinned.stderr).toMatch(/queued delivery is served only by the published router routes/);
  });
});

describe.concurrent('models status / result / cancel', () => {
  it('status shows the state; result before the end is exit 8 naming --wait; after it, the output', async () => {
    const t = await own();
    const id = await t.queued({ prompt: 'later', duration_ms: 2500 });
    const status = await t.wes(['models', 'status', 'dev/slow', id]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`request\\t${id}\\nmodel\\tdev/slow\\nstatus\\tIN_(QUEUE|PROGRESS)`));
    expect(status.stderr).toContain(`collect it once done: wes models result dev/slow ${id} --wait`);
    const early = await t.wes(['models', 'result', 'dev/slow', id]);
    expect(early.code).toBe(8);
    expect(early.stdout).toBe('');
    expect(early.stderr).toMatch(new RegExp(`request ${id} of dev/slow has no result yet \\(IN_PROGRESS\\)`));
    expect(early.stderr).toContain(`hint: wait for it with: wes models result dev/slow ${id} --wait`);
    // A -o file is written only with the output: the 202 "not yet" never reaches it.
    const file = join(work, 'early.json');
    const earlyToFile = await t.wes(['models', 'result', 'dev/slow', id, '-o', file]);
    expect(earlyToFile.code).toBe(8);
    expect(readdirSync(work)).not.toContain('early.json');
    const waited = await t.wes(['models', 'result', '@1', '--wait']);
    expect(waited.code, waited.stderr).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({ prompt: 'later' });
    const again = await t.wes(['models', 'result', 'dev/slow', id, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ prompt: 'later' });
    expect(JSON.parse(again.stderr.trim().split('\n').pop()!)).toEqual({ metadata: expect.objectContaining({ model: 'dev/slow', queued_request_id: id, replayed: false }) });
  });

  it('cancel asks (exit 0), the request ends cancelled (result exit 10), a second cancel says it had completed', async () => {
    const t = await own();
    configureQueue(t.server.state, { slots: 1 });
    const first = await t.queued({ duration_ms: 5000 });
    const id = await t.queued({ duration_ms: 800 });
    const status = await t.wes(['models', 'status', '@last']);
    expect(status.stdout).toMatch(/status\tIN_QUEUE\nqueue position\t0/);
    const cancel = await t.wes(['models', 'cancel', '@last']);
    expect(cancel.code).toBe(0);
    expect(cancel.stderr).toContain(`✓ asked the router to cancel request ${id} of dev/slow (CANCELLATION_REQUESTED)`);
    expect(cancel.stderr).toMatch(/may still complete, and be charged/);
    const after = await t.wes(['models', 'status', 'dev/slow', id]);
    expect(after.stdout).toMatch(/status\tCOMPLETED\nerror type\tcancelled/);
    expect(after.stderr).toMatch(/ended without a result \(cancelled\)/);
    const result = await t.wes(['models', 'result', 'dev/slow', id]);
    expect(result.code).toBe(10);
    expect(result.stderr).toMatch(/code cancelled, HTTP 409/);
    const twice = await t.wes(['models', 'cancel', 'dev/slow', id, '--json']);
    expect(twice.code).toBe(0);
    expect(JSON.parse(twice.stdout)).toEqual({ request_id: id, status: 'ALREADY_COMPLETED' });
    expect(twice.stderr).toMatch(/had already completed \(ALREADY_COMPLETED\): nothing to cancel/);
    const listed = await t.wes(['models', 'requests', '--model', 'dev/slow', '--json']);
    expect(JSON.parse(listed.stdout)[0]).toMatchObject({ request_id: id, status: 'cancelled' });
    await t.wes(['models', 'cancel', 'dev/slow', first]);
  });

  it('a request the router does not know is exit 5; a malformed id or a missing one is exit 2', async () => {
    const t = await own();
    const unknown = await t.wes(['models', 'status', 'dev/slow', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toMatch(/code request_not_found/);
    const malformed = await t.wes(['models', 'result', 'dev/slow', 'abc']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/request id "abc" is not a lowercase UUID/);
    const missing = await t.wes(['models', 'cancel', 'dev/slow']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/give the model id and the request id: wes models cancel provider\/model REQUEST_ID/);
    const noHistory = await runWes(['models', 'status', '@last'], { env: { WES_BASE_URL: t.server.url, WES_API_KEY: 'wes-dev-key' } });
    expect(noHistory.code).toBe(2);
    expect(noHistory.stderr).toMatch(/no model request queued from here yet/);
  });

  it('requests --refresh asks the router about the unfinished ones', async () => {
    const t = await own();
    // The history holds the state the submit answered (IN_QUEUE or IN_PROGRESS), however soon the
    // request ends: its length is no window here, only time waited for COMPLETED below.
    const id = await t.queued({ duration_ms: 300 });
    const before = await t.wes(['models', 'requests', '--json']);
    expect(JSON.parse(before.stdout)[0]).toMatchObject({ request_id: id, status: expect.stringMatching(/^IN_/) });
    const latest = async () => JSON.parse((await t.wes(['models', 'requests', '--limit', '1', '--json'])).stdout)[0];
    // Without --refresh the history stays as last seen (the router is asked here behind wes's back); with it, the router is asked.
    const routerSays = async () => ((await (await fetch(`${t.server.url}/v2/models/dev/slow/requests/${id}/status`, { headers: { authorization: 'Bearer wes-dev-key' } })).json()) as { status: string }).status;
    await until(async () => (await routerSays()) === 'COMPLETED', 'the request to complete');
    expect(await latest()).toMatchObject({ request_id: id, status: expect.stringMatching(/^IN_/) });
    const refreshed = await t.wes(['models', 'requests', '--refresh', '--limit', '1', '--json']);
    expect(JSON.parse(refreshed.stdout)).toEqual([expect.objectContaining({ request_id: id, status: 'COMPLETED' })]);
  });
});

describe.concurrent('a wait that stops', () => {
  it('--timeout leaves the request running and names the command that collects it (exit 8)', async () => {
    const t = await own();
    const id = await t.queued({ duration_ms: 5000 });
    const r = await t.wes(['--timeout', '1.5', 'models', 'result', '@last', '--wait', '-o', join(work, 'late.json')]);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain(`hint: request ${id} keeps running at the router; collect it with: wes models result dev/slow ${id} --wait -o ${join(work, 'late.json')}`);
    await t.wes(['models', 'cancel', 'dev/slow', id]);
  });

  it('Ctrl-C names the request and the collect command (exit 130); the request keeps running', async () => {
    const t = await own();
    const r = await t.wes(['models', 'run', 'dev/slow', '-d', '{"duration_ms":5000}', '--queue', '--wait'], { onSpawn: interruptWhen(/running \(asking again/) });
    expect(r.code).toBe(130);
    const id = /queued dev\/slow as request (\S+)/.exec(r.stderr)![1]!;
    expect(r.stderr).toContain(`interrupted: request ${id} of dev/slow keeps running at the router (cancel it with: wes models cancel dev/slow ${id})`);
    expect(r.stderr).toContain(`resume with: wes models result dev/slow ${id} --wait`);
    const status = await t.wes(['models', 'status', 'dev/slow', id, '--json']);
    expect(JSON.parse(status.stdout).status).toBe('IN_PROGRESS');
    await t.wes(['models', 'cancel', 'dev/slow', id]);
  });
});
