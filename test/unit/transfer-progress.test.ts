// Transfer progress for people: bytes, rate and time left, one line per file for a few and one
// total for many, redrawn on a terminal and plain (throttled) lines elsewhere.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IOStreams } from '../../src/render/io.js';
import { formatEta, RateMeter, TransferDisplay, transferText } from '../../src/render/transfer.js';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

function plainIo(): { io: IOStreams; err: () => string } {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (c: Buffer) => (text += c.toString()));
  const io = new IOStreams({ stdin: new PassThrough(), stdout: new PassThrough(), stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env: {} });
  return { io, err: () => text };
}

describe('transfer progress', () => {
  it('says how much, how fast and how long: "2.1 GiB of 3.0 GiB · 410 MiB/s · 2 s left"', () => {
    expect(transferText(2.1 * GiB, 3 * GiB, 410 * MiB)).toBe('2.1 GiB of 3.0 GiB · 410 MiB/s · 3 s left');
    expect(transferText(2.2 * GiB, 3 * GiB, 410 * MiB)).toBe('2.2 GiB of 3.0 GiB · 410 MiB/s · 2 s left');
    expect(transferText(5 * MiB, null, null)).toBe('5.0 MiB');
    expect(transferText(5 * MiB, 10 * MiB, null)).toBe('5.0 MiB of 10 MiB');
    expect(formatEta(0.2)).toBe('1 s left');
    expect(formatEta(125)).toBe('2 min left');
    expect(formatEta(3900)).toBe('1 h 5 min left');
  });

  it('measures the rate over the last seconds', () => {
    const m = new RateMeter();
    expect(m.rate()).toBeNull();
    m.add(0, 0);
    m.add(1000, 100 * MiB);
    expect(m.rate()).toBe(100 * MiB);
    m.add(5000, 100 * MiB);
    m.add(6000, 150 * MiB);
    expect(m.rate()).toBeCloseTo((50 * MiB) / 1, -3);
  });

  it('one line per file for a few, one total for many; plain lines at most every 2 s off a terminal', async () => {
    const { io, err } = plainIo();
    let now = 0;
    const few = await TransferDisplay.open(io, { verb: 'downloading', count: 2, totalBytes: 4 * GiB, now: () => now });
    few.update({ name: 'a.png', bytes: 0, total: 2 * GiB });
    few.update({ name: 'b.png', bytes: 0, total: 2 * GiB });
    now = 1000;
    few.update({ name: 'a.png', bytes: 512 * MiB, total: 2 * GiB });
    few.update({ name: 'b.png', bytes: 256 * MiB, total: 2 * GiB });
    expect(few.text()).toBe('downloading a.png  512 MiB of 2.0 GiB · 512 MiB/s · 3 s left\n  b.png  256 MiB of 2.0 GiB · 256 MiB/s · 7 s left');
    now = 2500;
    few.update({ name: 'a.png', bytes: 600 * MiB, total: 2 * GiB });
    const printed = err().trim().split('\n');
    expect(printed[0]).toBe('downloading 2 files');
    expect(printed.length).toBeLessThanOrEqual(4);

    const many = await TransferDisplay.open(io, { verb: 'downloading', count: 12, totalBytes: 12 * GiB, now: () => now });
    for (let i = 0; i < 12; i++) many.update({ name: `f${i}`, bytes: i < 3 ? GiB : 0, total: GiB });
    now = 3500;
    for (let i = 3; i < 12; i++) many.update({ name: `f${i}`, bytes: 100 * MiB, total: GiB });
    expect(many.text()).toMatch(/^downloading 3 of 12 files · 3\.9 GiB of 12 GiB · \S+ \S+\/s · \d+ \S+ left$/);
  });
});
