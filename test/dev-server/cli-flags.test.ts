// The flags of `wes dev-server` for the job API as published: --jobs-port (self-hosted: the job
// API v2 on a port of its own, the main port the engine), --job-list on|off and --cancel
// effective|ignored; through the built binary, asking the running server.
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';

/** Runs `wes dev-server ARGS`, calls `probe` with its stderr once it says how to stop it, then stops it. */
async function whileRunning(args: string[], probe: (stderr: string) => Promise<void>): Promise<{ code: number; stderr: string; probed: unknown }> {
  let probed: unknown = 'never probed';
  const onSpawn = (child: ChildProcess): void => {
    let seen = '';
    let started = false;
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (started || !/Stop with Ctrl-C/.test(seen)) return;
      started = true;
      probe(seen).then(
        () => (probed = null),
        (err: unknown) => (probed = err),
      ).finally(() => child.kill('SIGINT'));
    });
  };
  const res = await runWes(['dev-server', '--port', '0', '--quiet-log', ...args], { onSpawn });
  return { code: res.code ?? -1, stderr: res.stderr, probed };
}

describe('wes dev-server --jobs-port and --job-list', () => {
  it('--surface self-hosted --jobs-port 0: the job API alone on its own port, the engine on the main one, both URLs said', async () => {
    const run = await whileRunning(['--surface', 'self-hosted', '--jobs-port', '0'], async (stderr) => {
      const jobsUrl = /export WES_BASE_URL=(\S+)/.exec(stderr)![1]!;
      const engineUrl = /export WES_ENGINE_URL=(\S+)/.exec(stderr)![1]!;
      expect(jobsUrl).not.toBe(engineUrl);
      expect(stderr).toContain(`the job API v2 alone on ${jobsUrl}`);
      expect(await (await fetch(`${jobsUrl}/api/v2/health`)).json()).toEqual({ status: 'healthy', upstream: engineUrl });
      expect((await fetch(`${jobsUrl}/api/v2/jobs`)).status).toBe(200);
      expect((await fetch(`${engineUrl}/api/v2/health`)).status).toBe(404);
      expect((await fetch(`${engineUrl}/api/object_info`)).status).toBe(200);
    });
    expect(run.probed).toBeNull();
    expect(run.code).toBe(0);
  });

  it('--job-list on serves the list on cloud; --job-list off hides it on self-hosted', async () => {
    const on = await whileRunning(['--job-list', 'on'], async (stderr) => {
      const base = /export WES_BASE_URL=(\S+)/.exec(stderr)![1]!;
      const res = await fetch(`${base}/api/v2/jobs`, { headers: { authorization: 'Bearer wes-dev-key' } });
      expect([res.status, await res.json()]).toEqual([200, { jobs: [], truncated: false }]);
    });
    expect(on.probed).toBeNull();
    const off = await whileRunning(['--surface', 'self-hosted', '--job-list', 'off'], async (stderr) => {
      const base = /export WES_BASE_URL=(\S+)/.exec(stderr)![1]!;
      expect((await fetch(`${base}/api/v2/jobs`)).status).toBe(404);
    });
    expect(off.probed).toBeNull();
  });

  it('--cancel effective makes a self-hosted cancel stop the job; without it the job runs on, as on the reference server', async () => {
    const cancelOnce = async (stderr: string): Promise<string[]> => {
      const base = /export WES_BASE_URL=(\S+)/.exec(stderr)![1]!;
      const workflow = { '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0 } }, '2': { class_type: 'Sample', inputs: { image: ['1', 0], steps: 100, seed: 1, denoise: 1, sampler_name: 'euler' } }, '3': { class_type: 'SaveImage', inputs: { images: ['2', 0], filename_prefix: 'c' } } };
      const job = (await (await fetch(`${base}/api/v2/jobs`, { method: 'POST', body: JSON.stringify({ workflow }) })).json()) as { id: string };
      const read = async () => ((await (await fetch(`${base}/api/v2/jobs/${job.id}`)).json()) as { status: string }).status;
      while ((await read()) !== 'running') await new Promise((r) => setTimeout(r, 20));
      const said = ((await (await fetch(`${base}/api/v2/jobs/${job.id}/cancel`, { method: 'POST' })).json()) as { status: string }).status;
      await new Promise((r) => setTimeout(r, 300));
      return [said, await read()];
    };
    let seen: string[] = [];
    const ignored = await whileRunning(['--surface', 'self-hosted', '--step-ms', '20'], async (stderr) => void (seen = await cancelOnce(stderr)));
    expect(ignored.probed).toBeNull();
    expect(seen).toEqual(['canceling', 'running']);
    const effective = await whileRunning(['--surface', 'self-hosted', '--step-ms', '20', '--cancel', 'effective'], async (stderr) => void (seen = await cancelOnce(stderr)));
    expect(effective.probed).toBeNull();
    expect(seen).toEqual(['canceling', 'canceled']);
  });

  it('refuses --jobs-port off self-hosted, beside --engine-only, and out of range: exit 2, nothing started', async () => {
    for (const [args, message] of [
      [['--jobs-port', '8189'], /--jobs-port applies to --surface self-hosted only \(this is --surface cloud\)/],
      [['--surface', 'self-hosted', '--engine-only', '--jobs-port', '0'], /--jobs-port and --engine-only cannot be combined/],
      [['--surface', 'self-hosted', '--jobs-port', '70000'], /--jobs-port <port>.*from 0 to 65535/],
      [['--job-list', 'maybe'], /--job-list <on\|off>.*'maybe' is invalid/],
      [['--cancel', 'sometimes'], /--cancel <effective\|ignored>.*'sometimes' is invalid/],
    ] as Array<[string[], RegExp]>) {
      const res = await runWes(['dev-server', '--quiet-log', ...args]);
      expect([args, res.code]).toEqual([args, 2]);
      expect(res.stderr).toMatch(message);
      expect(res.stdout).toBe('');
    }
  });
});
