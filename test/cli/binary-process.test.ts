// The built binary as a process, where the in-process runs cannot look: the exit status the
// process itself ends with, the `--version` fast path, and a reader that goes away (`| head`).
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { spawnWes, WES_BIN } from '../helpers/cli.js';
import { getJson, imageWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';

const dev = useDevServer({ stepMs: 60 });
const env = () => ({ WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey! });

describe('bin/wes.js as a process', () => {
  it('answers --version before loading anything else, and exits 0', async () => {
    const res = await spawnWes(['--version']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^wes \d+\.\d+\.\d+\n$/);
  });

  it('answers --version to a reader that has gone away quietly, with exit 0 (`wes --version | true`)', async () => {
    const res = await spawnWes(['--version'], { onSpawn: (child) => child.stdout?.destroy() });
    expect(res).toMatchObject({ code: 0, stderr: '' });
  });

  it.skipIf(!existsSync('/dev/full'))('says once that its output cannot be written (`> /dev/full`) and exits 1; a stderr that cannot be written keeps the exit code', async () => {
    // /bin/sh puts the program's stdout (or stderr) on /dev/full, where every write fails with ENOSPC.
    const onFull = (stream: 1 | 2) => ['/bin/sh', '-c', `exec "$@" ${stream}>/dev/full`, 'sh', process.execPath, WES_BIN];
    // Said once, in one form: by the command it stopped, or (a command that had ended, `--version`) as the process ends.
    const once = /^stopped: the output cannot be written \(ENOSPC: no space left on device, write\)\n$/;
    for (const args of [['--version'], ['help', 'exit-codes'], ['completion', 'bash'], ['models', 'run', 'dev/echo', '-d', '{"prompt":"x"}']]) {
      const res = await spawnWes(args, { env: env(), program: onFull(1) });
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(1);
      expect(res.stderr).toMatch(once);
    }
    // With --json, stderr holds the one error object.
    const json = await spawnWes(['help', 'exit-codes', '--json'], { env: env(), program: onFull(1) });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'output_failed', message: expect.stringContaining('ENOSPC') } });
    expect((await spawnWes(['jobs', 'get', '00000000-0000-4000-8000-000000000000'], { env: env(), program: onFull(2) })).code).toBe(5);
  });

  it('ends with the documented exit status: 2 for a usage error, 5 for a job that is not there', async () => {
    const usage = await spawnWes(['jobs', 'nosuch'], { env: env() });
    expect(usage.code).toBe(2);
    const missing = await spawnWes(['jobs', 'get', '00000000-0000-4000-8000-000000000000'], { env: env() });
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/^error: /m);
  });

  it('ends only when what it printed has reached a slow reader: a 400 KB workflow through a pipe paused at the start arrives whole, exit 0', async () => {
    const workflow = { 1: { class_type: 'SaveBytes', inputs: { size_bytes: 8, content_type: 'application/octet-stream' }, _meta: { title: 'x'.repeat(400_000) } } };
    const submitted = await submitJob(dev.server, workflow);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    // The pipe holds 64 KiB: the rest waits in the process, which ends once main has resolved and no write is pending (cli.ts, exitWhenIdle).
    const res = await spawnWes(['jobs', 'workflow', submitted.body.id as string], {
      env: env(),
      onSpawn: (child) => {
        child.stdout?.pause();
        setTimeout(() => child.stdout?.resume(), 500);
      },
    });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual(workflow);
  });

  it('a reader that closes stdout during legacy view stops it quietly (141, as SIGPIPE would), with no EPIPE error', async () => {
    const submitted = await submitJob(dev.server, { 1: { class_type: 'SaveBytes', inputs: { size_bytes: 8 * 1024 * 1024, content_type: 'application/octet-stream' } } });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    const done = await waitForJob(dev.server, submitted.body.urls.self as string, ['succeeded']);
    const name = (done.outputs as { name: string }[])[0]!.name;
    const res = await spawnWes(['legacy', 'view', name], {
      env: env(),
      onSpawn: (child) => child.stdout?.once('data', () => child.stdout?.destroy()),
    });
    expect(res.code, res.stderr).toBe(141);
    expect(res.stderr).not.toMatch(/EPIPE|\n\s+at |interrupted|error/);
  });

  it('a reader that closes stdout stops a watch (141), says the job keeps running and how to resume, with no EPIPE trace', async () => {
    const submitted = await submitJob(dev.server, imageWorkflow({ steps: 100 }));
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    const job = submitted.body;
    const res = await spawnWes(['jobs', 'watch', job.id as string, '--json', '--interval', '0.05'], {
      env: env(),
      onSpawn: (child) => child.stdout?.destroy(),
    });
    expect(res.code, res.stderr).toBe(141);
    expect(res.stderr).not.toMatch(/EPIPE|\n\s+at |interrupted/);
    expect(res.stderr).toContain(`stopped: the reader of the output went away: job ${job.id} keeps running on the service`);
    const after = await getJson(dev.server, job.urls.self as string);
    expect(['queued', 'running']).toContain(after.body.status);
  });
});
