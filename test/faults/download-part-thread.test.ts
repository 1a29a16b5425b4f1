// Downloads whose writes and hash run on the part thread (WES_PART_THREAD=1: what a machine with
// cores to spare does for a large file) keep every rule of a download written where it arrives:
// a break resumes with Range and the file is verified whole, a corrupted resume fails the check
// and keeps nothing, Ctrl-C keeps exactly the bytes written and the rerun goes on from them, and
// kill -9 at any moment leaves a part the next run completes byte-exact. The built CLI exits by
// itself once it is done, whether or not the thread it started took the transfer (a resumed part
// stays where it arrives).
import { copyFileSync, mkdirSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addFaults } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst } from '../cli/jobs-env.js';
import { blake3File } from '../../src/files/blake3.js';
import { THREAD_MIN_BYTES } from '../../src/files/part-thread.js';
import { countsFrom, filesUnder, finishedBytesJob, logged, partSize, plannedSignal, signalWhenPart, until, useFaultServer } from './kit.js';

const MIB = 1024 * 1024;
const ON_THREAD = { WES_PART_THREAD: '1' };
/** A run of the built CLI not done by then never exits: runWes kills it, and the test fails. */
const EXIT_WITHIN_MS = 25_000;

describe('a download written and hashed on the part thread', () => {
  const fx = useFaultServer();
  const wes = wesAgainst(() => fx.server);
  const dir = useTempDir();

  const finishedJob = (size: number) => finishedBytesJob(fx.server, size);

  it('resumes with Range after a reset mid-body and verifies the whole file', async () => {
    const size = 6 * MIB;
    const { id, output, signed } = await finishedJob(size);
    await addFaults(fx.server, { match: `GET ${signed}`, action: 'drop', after_bytes: size / 2 });
    const counts = countsFrom(fx.server);
    const out = join(dir(), 'resumed');
    const res = await wes(['jobs', 'download', id, out, '--json'], { env: ON_THREAD });
    expect(res.code, res.stderr).toBe(0);
    expect(counts.delta(`GET ${signed}`)).toBe(2);
    await until(() => logged(fx.log, 'GET', signed).length === 2);
    expect(logged(fx.log, 'GET', signed).map((l) => l.split(' ')[2]).sort()).toEqual(['200', '206']);
    expect(JSON.parse(res.stdout)[0]).toMatchObject({ bytes: size, hash: output.hash, verified: true });
    expect(await blake3File(join(out, output.name))).toBe(output.hash);
    expect(filesUnder(out)).toEqual([output.name, 'job.json'].sort());
  });

  it('a resumed part that arrives corrupted fails the blake3 check and keeps nothing; a rerun succeeds', async () => {
    const size = 4 * MIB;
    const { id, output, signed } = await finishedJob(size);
    await addFaults(fx.server, [
      { match: `GET ${signed}`, action: 'drop', after_bytes: size / 2 },
      { match: `GET ${signed}`, action: 'corrupt', after_bytes: 10 },
    ]);
    const out = join(dir(), 'corrupt');
    const res = await wes(['jobs', 'download', id, out], { env: ON_THREAD });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('blake3 mismatch');
    expect(filesUnder(out)).toEqual(['job.json']);
    const rerun = await wes(['jobs', 'download', id, out], { env: ON_THREAD });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(await blake3File(join(out, output.name))).toBe(output.hash);
  });

  it('the built CLI starts the thread from its bundle: a whole download written and verified there', async () => {
    const size = 8 * MIB;
    const { id, output } = await finishedJob(size);
    const out = join(dir(), 'built');
    const res = await wes(['jobs', 'download', id, out, '--json'], { env: ON_THREAD, spawn: true });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)[0]).toMatchObject({ bytes: size, hash: output.hash, verified: true });
    expect(await blake3File(join(out, output.name))).toBe(output.hash);
  });

  it('Ctrl-C keeps exactly the bytes written (built CLI); the rerun resumes with Range and verifies the whole file', async () => {
    const size = 3 * MIB;
    const { id, output, signed } = await finishedJob(size);
    await addFaults(fx.server, { match: `GET ${signed}`, action: 'stall', after_bytes: MIB });
    const out = join(dir(), 'ctrl-c');
    const part = join(out, `${output.name}.part`);
    const stopped = await wes(['jobs', 'download', id, out], { env: ON_THREAD, onSpawn: signalWhenPart(part, MIB, 'SIGINT') });
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(partSize(part)).toBe(MIB);
    expect(stopped.stderr).toContain(`kept ${part} (1.0 MiB of 3.0 MiB downloaded`);
    const resumed = await wes(['jobs', 'download', id, out, '--verbose'], { env: ON_THREAD });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`> range: bytes=${MIB}-`);
    expect(await blake3File(join(out, output.name))).toBe(output.hash);
    expect(filesUnder(out)).toEqual([output.name, 'job.json'].sort());
  });

  it('a resumed part goes on where it arrives with the thread asked for: the built CLI saves the file and exits', async () => {
    const size = THREAD_MIN_BYTES;
    const { id, output } = await finishedJob(size);
    const whole = join(dir(), 'resume-whole');
    expect((await wes(['jobs', 'download', id, whole], { env: { WES_PART_THREAD: '0' } })).code).toBe(0);
    const out = join(dir(), 'resume-nearly-done');
    mkdirSync(out);
    const part = join(out, `${output.name}.part`);
    copyFileSync(join(whole, output.name), part);
    truncateSync(part, size - 300_000); // what a kill -9 near the end left
    const res = await wes(['jobs', 'download', id, out, '--verbose'], { env: ON_THREAD, spawn: true, timeoutMs: EXIT_WITHIN_MS });
    expect(res, res.stderr).toMatchObject({ signal: null, code: 0 });
    expect(res.stderr).toContain(`> range: bytes=${size - 300_000}-`);
    expect(await blake3File(join(out, output.name))).toBe(output.hash);
  }, 60_000);

  it('a large download that fails before its first byte, with the thread started for it: the built CLI reports the failure and exits', async () => {
    const { id, signed } = await finishedJob(THREAD_MIN_BYTES);
    await addFaults(fx.server, { match: `GET ${signed}`, action: 'status', status: 404 });
    const out = join(dir(), 'failed-early');
    const res = await wes(['jobs', 'download', id, out], { env: ON_THREAD, spawn: true, timeoutMs: EXIT_WITHIN_MS });
    expect(res.signal, res.stderr).toBeNull();
    expect(res.code, res.stderr).not.toBe(0);
    expect(res.stderr).toContain('saved only 0 of 1 output(s)');
    expect(res.stderr).toContain('HTTP 404');
    expect(filesUnder(out)).toEqual(['job.json']);
  }, 60_000);

  it('kill -9 at random moments (built CLI): each rerun goes on from the part, the last ends byte-exact', async () => {
    const size = 48 * MIB;
    const { id, output } = await finishedJob(size);
    const out = join(dir(), 'killed');
    const part = join(out, `${output.name}.part`);
    const moments = Array.from({ length: 4 }, () => Math.floor(Math.random() * size)).sort((a, b) => a - b);
    for (const at of moments) {
      const kill = plannedSignal(part, at, 'SIGKILL');
      const res = await wes(['jobs', 'download', id, out], { env: ON_THREAD, onSpawn: kill.onSpawn, timeoutMs: EXIT_WITHIN_MS });
      if (!kill.sent()) expect(res, `it finished before that moment came, and must have exited by itself:\n${res.stderr}`).toMatchObject({ signal: null, code: 0 });
      if (res.code === 0) break;
    }
    const last = await wes(['jobs', 'download', id, out], { env: ON_THREAD, spawn: true, timeoutMs: EXIT_WITHIN_MS });
    expect(last, last.stderr).toMatchObject({ signal: null, code: 0 });
    expect(statSync(join(out, output.name)).size).toBe(size);
    expect(await blake3File(join(out, output.name))).toBe(output.hash);
    expect(filesUnder(out)).toEqual([output.name, 'job.json'].sort());
  }, 120_000);
});
