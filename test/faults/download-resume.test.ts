// A download cut short keeps its bytes: Ctrl-C, SIGTERM, a connection that dies for good or
// stalls past --timeout, even kill -9, leave NAME.part; the next run of the same command sends
// `Range: bytes=<part size>-`, continues the blake3 over the bytes on disk and ends with the exact
// file and no .part. The message says what was kept and the command that goes on.
import { existsSync, linkSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addFaults, bytesWorkflow } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst, writeTemp } from '../cli/jobs-env.js';
import { blake3File } from '../../src/files/blake3.js';
import { filesUnder, finishedBytesJob, partSize, plannedSignal, signalWhenPart, sleep, useFaultServer } from './kit.js';

const MIB = 1024 * 1024;

describe('an interrupted download goes on where it stopped', () => {
  const fx = useFaultServer();
  const wes = wesAgainst(() => fx.server);
  const dir = useTempDir();

  const finishedJob = (size: number) => finishedBytesJob(fx.server, size);

  it('Ctrl-C in `jobs download` keeps the .part and says how to go on; the rerun resumes with Range and verifies the whole file', async () => {
    const size = 3 * MIB;
    const { id, output, signed } = await finishedJob(size);
    // The body stops after 1 MiB and holds the connection open: Ctrl-C lands mid-download.
    await addFaults(fx.server, { match: `GET ${signed}`, action: 'stall', after_bytes: MIB });
    const out = join(dir(), 'ctrl-c');
    const part = join(out, `${output.name}.part`);
    const stopped = await wes(['jobs', 'download', id, out], { onSpawn: signalWhenPart(part, MIB, 'SIGINT') });
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(partSize(part)).toBe(MIB);
    expect(stopped.stderr).toContain(`kept ${part} (1.0 MiB of 3.0 MiB downloaded`);
    expect(stopped.stderr).toContain(`resume the download with: wes jobs download ${id} ${out}`);
    expect(existsSync(join(out, output.name))).toBe(false);

    const resumed = await wes(['jobs', 'download', id, out, '--verbose']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`> range: bytes=${MIB}-`));
    expect(await blake3File(join(out, output.name))).toBe(output.hash);
    expect(filesUnder(out)).toEqual([output.name, 'job.json'].sort());
  });

  it('SIGTERM (exit 143) keeps the .part like Ctrl-C does; the rerun resumes it', async () => {
    const { id, output, signed } = await finishedJob(2 * MIB);
    await addFaults(fx.server, { match: `GET ${signed}`, action: 'stall', after_bytes: MIB });
    const out = join(dir(), 'sigterm');
    const part = join(out, `${output.name}.part`);
    const stopped = await wes(['jobs', 'download', id, out], { onSpawn: signalWhenPart(part, MIB, 'SIGTERM') });
    expect(stopped.code, stopped.stderr).toBe(143);
    expect(partSize(part)).toBe(MIB);
    expect(stopped.stderr).toContain(`resume the download with: wes jobs download ${id} ${out}`);
    const resumed = await wes(['jobs', 'download', id, out, '--verbose']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`> range: bytes=${MIB}-`);
    expect(await blake3File(join(out, output.name))).toBe(output.hash);
  });

  it('Ctrl-C in `jobs submit --wait --download` names `jobs download` to go on', async () => {
    const size = 2 * MIB;
    const flow = writeTemp(dir(), bytesWorkflow(size));
    const out = join(dir(), 'submit-wait');
    // Every signed GET stalls after 1 MiB (this test's job is the only one downloading now).
    await addFaults(fx.server, { match: 'GET /signed/**', action: 'stall', after_bytes: MIB });
    let part = '';
    const stopped = await wes(['jobs', 'submit', flow, '--download', out], {
      onSpawn: (child) => {
        const timer = setInterval(() => {
          const found = existsSync(out) ? readdirSync(out).find((f) => f.endsWith('.part')) : undefined;
          if (found && partSize(join(out, found)) >= MIB) {
            part = join(out, found);
            clearInterval(timer);
            child.kill('SIGINT');
          }
        }, 5);
        child.on('exit', () => clearInterval(timer));
      },
    });
    expect(stopped.code, stopped.stderr).toBe(130);
    const id = stopped.stdout.trim().split('\n')[0]!;
    expect(stopped.stderr).toContain(`kept ${part}`);
    expect(stopped.stderr).toContain(`resume the download with: wes jobs download ${id} ${out}`);
    const resumed = await wes(['jobs', 'download', id, out, '--verbose']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`> range: bytes=${MIB}-`);
    expect(filesUnder(out).some((f) => f.endsWith('.part'))).toBe(false);
  });

  it('a body that stalls until --timeout keeps what arrived (exit 8); the rerun completes it', async () => {
    const { id, output, signed } = await finishedJob(MIB);
    await addFaults(fx.server, { match: `GET ${signed}`, action: 'stall', after_bytes: 300_000 });
    const out = join(dir(), 'stalled');
    const timedOut = await wes(['jobs', 'download', id, out, '--timeout', '1.5']);
    expect(timedOut.code, timedOut.stderr).toBe(8);
    expect(partSize(join(out, `${output.name}.part`))).toBe(300_000);
    const resumed = await wes(['jobs', 'download', id, out]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(await blake3File(join(out, output.name))).toBe(output.hash);
  });

  it('a kept .part whose bytes are not the file\'s (tampered) is fetched again whole, and only verified bytes are kept', async () => {
    const { id, output, signed } = await finishedJob(MIB);
    await addFaults(fx.server, { match: `GET ${signed}`, action: 'stall', after_bytes: 400_000 });
    const out = join(dir(), 'tampered');
    const part = join(out, `${output.name}.part`);
    const first = await wes(['jobs', 'download', id, out, '--timeout', '1.5']);
    expect(first.code).toBe(8);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(part, Buffer.alloc(400_000, 7));
    const rerun = await wes(['jobs', 'download', id, out]);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(await blake3File(join(out, output.name))).toBe(output.hash);
    expect(filesUnder(out)).toEqual([output.name, 'job.json'].sort());
  });

  it('proof: a 64 MiB download killed with SIGKILL at 10 random moments and resumed each time ends byte-exact with no .part', async () => {
    const size = 64 * MIB;
    const { id, output } = await finishedJob(size);
    const out = join(dir(), 'crash-loop');
    const part = join(out, `${output.name}.part`);
    const moments = Array.from({ length: 10 }, () => Math.floor(Math.random() * size)).sort((a, b) => a - b);
    let killed = 0;
    for (const at of moments) {
      const kill = plannedSignal(part, at, 'SIGKILL');
      const res = await wes(['jobs', 'download', id, out], { onSpawn: kill.onSpawn });
      if (kill.sent()) killed++;
      // It finished before that moment came, and must have exited by itself (not by runWes's timeout).
      else expect(res, res.stderr).toMatchObject({ signal: null, code: 0 });
      if (res.code === 0) break;
    }
    // The next run after the last kill finds whatever the kill left (a part, or a finished file
    // still linked as its part) and ends the download.
    const last = await wes(['jobs', 'download', id, out]);
    expect(last.code, last.stderr).toBe(0);
    expect(killed).toBeGreaterThan(0);
    expect(statSync(join(out, output.name)).size).toBe(size);
    expect(await blake3File(join(out, output.name))).toBe(output.hash);
    expect(filesUnder(out)).toEqual([output.name, 'job.json'].sort());
  }, 120_000);

  it('a kill between giving the part its name and removing the old one: the next run keeps the file and drops the extra name', async () => {
    const { id, output, signed } = await finishedJob(200_000);
    const out = join(dir(), 'half-committed');
    expect((await wes(['jobs', 'download', id, out])).code).toBe(0);
    // The state link() without its unlink() leaves: NAME.part is a second name of NAME.
    linkSync(join(out, output.name), join(out, `${output.name}.part`));
    const before = fx.server.state.requestCounts.get(`GET ${signed}`) ?? 0;
    const next = await wes(['jobs', 'download', id, out]);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain('already there with the same bytes');
    expect(fx.server.state.requestCounts.get(`GET ${signed}`) ?? 0).toBe(before);
    expect(filesUnder(out)).toEqual([output.name, 'job.json'].sort());
    expect(statSync(join(out, output.name)).nlink).toBe(1);
  });

  it('after a finished download, the same command transfers nothing: the same bytes are kept', async () => {
    const { id, signed } = await finishedJob(200_000);
    const out = join(dir(), 'again');
    expect((await wes(['jobs', 'download', id, out])).code).toBe(0);
    const before = fx.server.state.requestCounts.get(`GET ${signed}`) ?? 0;
    const again = await wes(['jobs', 'download', id, out]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('already there with the same bytes');
    expect(fx.server.state.requestCounts.get(`GET ${signed}`) ?? 0).toBe(before);
    await sleep(0);
  });
});
