// A signed URL that fails half-way, through `wes jobs download`: the download resumes with Range
// (or restarts when the server ignores Range), and the final name only ever holds verified bytes:
// a body that cannot be completed or checked leaves neither the file nor its .part behind.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addFaults, type Json } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst } from '../cli/jobs-env.js';
import { blake3File } from '../../src/files/blake3.js';
import { startFakeService, type FakeService } from '../security/fake-service.js';
import { countsFrom, filesUnder, finishedBytesJob as bytesJob, logged, until, useFaultServer, wesAt } from './kit.js';

const SIZE = 200_000;

describe('a signed URL that fails half-way', () => {
  const fx = useFaultServer();
  const wes = wesAgainst(() => fx.server);
  const dir = useTempDir();

  async function finishedBytesJob(): Promise<{ id: string; output: Json; signed: string; key: string }> {
    const { id, output, signed } = await bytesJob(fx.server, SIZE);
    expect(output.hash).toMatch(/^blake3:/);
    return { id, output, signed, key: `GET ${signed}` };
  }

  it('resumes with Range after a reset mid-body: two requests, the second a 206, a verified file', async () => {
    const { id, output, signed, key } = await finishedBytesJob();
    await addFaults(fx.server, { match: key, action: 'drop', after_bytes: SIZE / 2 });
    const counts = countsFrom(fx.server);
    const out = join(dir(), 'resumed');
    const res = await wes(['jobs', 'download', id, out, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(counts.delta(key)).toBe(2);
    await until(() => logged(fx.log, 'GET', signed).length === 2);
    const answers = logged(fx.log, 'GET', signed);
    expect(answers.map((l) => l.split(' ')[2]).sort(), answers.join('\n')).toEqual(['200', '206']);
    const [saved] = JSON.parse(res.stdout);
    expect(saved).toMatchObject({ bytes: SIZE, hash: output.hash, verified: true });
    expect(await blake3File(join(out, output.name))).toBe(output.hash);
    expect(filesUnder(out)).toEqual([output.name, 'job.json'].sort());
  });

  it('resumes after a clean early end (truncated) and after two resets in a row', async () => {
    for (const faults of [
      [{ action: 'truncate', after_bytes: 70_000 }],
      [{ action: 'drop', after_bytes: 50_000 }, { action: 'drop', after_bytes: 60_000 }],
    ]) {
      const { id, output, key } = await finishedBytesJob();
      await addFaults(fx.server, faults.map((f) => ({ match: key, ...f })));
      const counts = countsFrom(fx.server);
      const out = join(dir(), `again-${faults.length}`);
      const res = await wes(['jobs', 'download', id, out]);
      expect(res.code, res.stderr).toBe(0);
      expect(counts.delta(key)).toBe(faults.length + 1);
      expect(await blake3File(join(out, output.name))).toBe(output.hash);
      expect(filesUnder(out)).toEqual([output.name, 'job.json'].sort());
    }
  });

  it('gives up after its resume attempts: exit 1, a bounded number of requests, nothing at the final name, the bytes kept for the next run', async () => {
    const { id, output, key } = await finishedBytesJob();
    await addFaults(fx.server, { match: key, action: 'drop', after_bytes: 1000, count: 4 });
    const counts = countsFrom(fx.server);
    const out = join(dir(), 'given-up');
    const res = await wes(['jobs', 'download', id, out]);
    expect(res.code).toBe(1);
    expect(counts.delta(key)).toBe(4); // the first try and three resumes
    expect(filesUnder(out)).toEqual([`${output.name}.part`, 'job.json']);
    expect(existsSync(join(out, output.name))).toBe(false);
    expect(res.stderr).toContain(`kept ${join(out, output.name)}.part`);
    expect(res.stderr).toContain(`resume the download with: wes jobs download ${id} ${out}`);
    const rerun = await wes(['jobs', 'download', id, out]);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(await blake3File(join(out, output.name))).toBe(output.hash);
    expect(filesUnder(out)).toEqual([output.name, 'job.json'].sort());
  });

  it('a resumed part that arrives corrupted fails the blake3 check: exit 1, no file, no .part; a rerun succeeds', async () => {
    const { id, output, key } = await finishedBytesJob();
    await addFaults(fx.server, [
      { match: key, action: 'drop', after_bytes: SIZE / 2 },
      { match: key, action: 'corrupt', after_bytes: 10 },
    ]);
    const out = join(dir(), 'corrupt-resume');
    const res = await wes(['jobs', 'download', id, out]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('blake3 mismatch');
    expect(filesUnder(out)).toEqual(['job.json']);
    const rerun = await wes(['jobs', 'download', id, out]);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(await blake3File(join(out, output.name))).toBe(output.hash);
  });

  it('a stalled signed body is ended by --timeout: exit 8, no file, no .part', async () => {
    const { id, output, key } = await finishedBytesJob();
    await addFaults(fx.server, { match: key, action: 'stall' });
    const out = join(dir(), 'stalled');
    const res = await wes(['jobs', 'download', id, out, '--timeout', '0.8']);
    expect(res.code).toBe(8);
    expect(existsSync(join(out, output.name))).toBe(false);
    expect(existsSync(join(out, `${output.name}.part`))).toBe(false);
  });
});

describe('a signed host that ignores Range', () => {
  let fake: FakeService;
  const body = Buffer.from(Array.from({ length: 150_000 }, (_, i) => (i * 7) & 0xff));
  afterAll(() => fake?.close());
  const dir = useTempDir();

  it('restarts from the first byte after a break, and still saves exactly the verified bytes', async () => {
    fake = await startFakeService({
      outputs: [{ name: 'big.bin', body }],
      // First answer: half the body, then the connection dies. Later answers: the whole body, 200.
      blob: (_req, res) => {
        res.writeHead(200, { 'content-length': body.length });
        if (fake.requests.filter((r) => r.url.startsWith('/blob/')).length === 1) {
          res.write(body.subarray(0, 60_000), () => res.socket?.destroy());
        } else res.end(body);
      },
    });
    const out = join(dir(), 'restart');
    const res = await wesAt(fake.url, ['jobs', 'download', fake.jobId, out]);
    expect(res.code, res.stderr).toBe(0);
    const blobs = fake.requests.filter((r) => r.url.startsWith('/blob/'));
    expect(blobs).toHaveLength(2);
    expect(blobs[0]!.headers.range).toBeUndefined();
    expect(blobs[1]!.headers.range).toBe('bytes=60000-');
    expect(readFileSync(join(out, 'big.bin')).equals(body)).toBe(true);
    expect(filesUnder(out)).toEqual(['big.bin', 'job.json']);
  });
});
