// Sizes in messages are written by the one formatter of progress lines and tables (util/byte-count):
// the answer-limit error and the kept-download notice once had formatters of their own, which
// showed a 512 KiB limit as "0.5 MiB" and a 300-byte .part as "0.0 MiB".
import { describe, expect, it } from 'vitest';
import { AnswerTooLargeError } from '../../src/http/answer-limit.js';
import { reportKept } from '../../src/render/kept.js';
import { formatBytes } from '../../src/util/byte-count.js';
import { IOStreams } from '../../src/render/io.js';
import { testIO } from '../helpers/test-io.js';

const MiB = 1024 ** 2;

describe('byte counts in messages', () => {
  it('formatBytes: bytes below 1 KiB, one decimal below 10 of a unit, none above', () => {
    expect(formatBytes(300)).toBe('300 B');
    expect(formatBytes(512 * 1024)).toBe('512 KiB');
    expect(formatBytes(1.5 * MiB)).toBe('1.5 MiB');
    expect(formatBytes(700 * MiB)).toBe('700 MiB');
    expect(formatBytes(null)).toBe('');
  });

  it('the answer-limit error says both sizes the way progress lines do', () => {
    expect(new AnswerTooLargeError('http://h.test', 64 * MiB, 700 * MiB).message).toBe('the service at http://h.test sent a 700 MiB answer; the limit is 64 MiB');
    expect(new AnswerTooLargeError('http://h.test', 512 * 1024).message).toBe('the service at http://h.test sent an answer of more than 512 KiB; the limit is 512 KiB');
  });

  it('the kept-download notice too, with or without a known total', () => {
    const io = testIO();
    reportKept(new IOStreams({ ...io, env: {} }), [
      { path: 'out/a.png.part', bytes: 41 * MiB, total: 64 * MiB },
      { path: 'out/b.bin.part', bytes: 300, total: null },
    ], 'wes jobs download J out');
    expect(io.stderr.text()).toBe(
      'kept out/a.png.part (41 MiB of 64 MiB downloaded, checked at the end)\n'
      + 'kept out/b.bin.part (300 B downloaded, checked at the end)\n'
      + 'resume the download with: wes jobs download J out\n',
    );
  });
});
