// What a person sees while a batch runs: on a terminal one live summary line (done, running,
// queued, failed, rate, ETA) with only failed lines printed above it; elsewhere one plain line
// per finished line, as scripts and CI logs have always had.
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BatchProgress, liveLine } from '../../src/commands/jobs/batch-progress.js';
import { IOStreams } from '../../src/render/io.js';
import type { BatchResult } from '../../src/features/batch/runner.js';

function captured(terminal: boolean): { io: IOStreams; text: () => string } {
  const stream = new PassThrough();
  // What ora asks of a terminal stream, recorded as plain carriage returns.
  const done = (cb?: () => void) => (cb?.(), true);
  const stderr = Object.assign(stream, {
    isTTY: terminal,
    columns: 100,
    cursorTo: (_x: number, cb?: () => void) => (stream.write('\r'), done(cb)),
    clearLine: (_dir: number, cb?: () => void) => done(cb),
    moveCursor: (_dx: number, _dy: number, cb?: () => void) => done(cb),
  });
  let text = '';
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const io = new IOStreams({ stdin: Readable.from([]), stdout: new PassThrough(), stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: terminal, env: { TERM: 'xterm' }, noColor: true });
  return { io, text: () => text };
}

function result(index: number, status: string): BatchResult {
  const error = status === 'failed' ? { code: 'execution_error', message: 'boom', status: null, exit_code: 3 } : null;
  return { index, job_id: `job-${index}`, status, outputs: [], error, idempotency_key: `K${index}` };
}

describe('batch progress', () => {
  it('the live line counts done, running, queued and failed, with the rate and the time left', () => {
    expect(liveLine({ total: 1000, done: 400, failed: 10, running: 64, elapsedMs: 10_000 })).toBe('batch: 400/1000 done, 64 running, 526 queued, 10 failed · 41.0 jobs/s · ETA 14s');
    expect(liveLine({ total: 10, done: 0, failed: 0, running: 0, elapsedMs: 0 })).toBe('batch: 0/10 done, 0 running, 10 queued, 0 failed · 0.0 jobs/s · ETA ?');
  });

  it('on a terminal: one live line, and only failed lines above it', async () => {
    const { io, text } = captured(true);
    const progress = await BatchProgress.start(io, 3, () => 1);
    progress.finished(result(1, 'succeeded'), true);
    progress.finished(result(2, 'failed'), false);
    progress.finished(result(3, 'succeeded'), true);
    progress.stop();
    expect(text()).toContain('line 2: job job-2 failed: execution_error: boom');
    expect(text()).not.toContain('line 1:');
    expect(text()).not.toContain('line 3:');
    expect(text()).toMatch(/batch: \d\/3 done, 1 running, \d queued, \d failed · [\d.]+ jobs\/s · ETA/);
  });

  it('elsewhere: one plain line per finished line and no live line', async () => {
    const { io, text } = captured(false);
    const progress = await BatchProgress.start(io, 2, () => 0);
    progress.finished(result(1, 'succeeded'), true);
    progress.finished(result(2, 'failed'), false);
    progress.stop();
    expect(text()).toBe('line 1: job job-1 succeeded\nline 2: job job-2 failed: execution_error: boom\n');
  });
});
