// One download of a file into a folder at a time (src/files/part-lock.ts): two downloads of the same
// output into one folder appended into one NAME.part, and the file that took its final name held the
// bytes twice. A download holds NAME.part.lock (its pid); another stops, naming it; a lock whose
// process is gone is taken over.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { bytesWorkflow, getJson, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { useTempDir } from './jobs-env.js';

const dev = useDevServer();
const env = () => ({ WES_BASE_URL: dev.server.url, WES_API_KEY: dev.server.apiKey! });
const dir = useTempDir();

/** A finished job of one SaveBytes output: its id, the output's file name, and its bytes as the server serves them. */
async function finishedJob(size: number): Promise<{ id: string; name: string; bytes: Buffer }> {
  const submitted = await submitJob(dev.server, bytesWorkflow(size));
  const done = await waitForJob(dev.server, submitted.body.urls.self as string, ['succeeded']);
  const output = (done.outputs as Array<{ name: string; url: string }>)[0]!;
  const bytes = Buffer.from(await (await fetch(output.url)).arrayBuffer());
  return { id: submitted.body.id as string, name: output.name, bytes };
}

describe('a download of a file into a folder another download is writing it into', () => {
  it('stops with exit 1, naming the other process and the lock, and writes no part of the file', async () => {
    const job = await finishedJob(64 * 1024);
    const target = join(dir(), 'busy');
    mkdirSync(target);
    // This process is alive: its pid holds the lock.
    writeFileSync(join(target, `${job.name}.part.lock`), `${process.pid}\n`);
    const res = await runWes(['jobs', 'download', job.id, target], { env: env() });
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain(`${job.name} is being downloaded into this folder by another wes (pid ${process.pid})`);
    expect(res.stderr).toContain(`${job.name}.part.lock`);
    // Neither the output nor a part of it: only the other's lock (job.json, the job's record, is written as ever).
    expect(readdirSync(target).filter((n) => n.startsWith(job.name))).toEqual([`${job.name}.part.lock`]);
  });

  it('takes over a lock whose process is gone (a run killed with -9), and leaves none behind', async () => {
    const job = await finishedJob(64 * 1024);
    const target = join(dir(), 'stale');
    mkdirSync(target);
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(join(target, `${job.name}.part.lock`), `${gone}\n`);
    const res = await runWes(['jobs', 'download', job.id, target], { env: env() });
    expect(res.code, res.stderr).toBe(0);
    expect(readFileSync(join(target, job.name)).equals(job.bytes)).toBe(true);
    expect(existsSync(join(target, `${job.name}.part.lock`))).toBe(false);
  });

  it('two downloads of the same job into one folder at once: the file is whole, and one either saves it too or stops naming the other', async () => {
    const job = await finishedJob(8 * 1024 * 1024);
    const target = join(dir(), 'both');
    const [a, b] = await Promise.all([runWes(['jobs', 'download', job.id, target], { env: env() }), runWes(['jobs', 'download', job.id, target], { env: env() })]);
    for (const res of [a, b]) {
      expect([0, 1], res.stderr).toContain(res.code);
      if (res.code === 1) expect(res.stderr).toContain('is being downloaded into this folder by another wes');
      expect(res.stderr).not.toMatch(/ENOENT|changed while/);
    }
    expect(a.code === 0 || b.code === 0).toBe(true);
    expect(readFileSync(join(target, job.name)).equals(job.bytes)).toBe(true);
    expect(readdirSync(target).filter((n) => n.endsWith('.part') || n.endsWith('.lock'))).toEqual([]);
    expect((await getJson(dev.server, `/api/v2/jobs/${job.id}`)).status).toBe(200);
  });
});
