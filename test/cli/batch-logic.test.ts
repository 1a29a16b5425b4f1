// The pure rules of batch mode: results come out in input order whatever order lines finish in,
// which key a resumed line runs with, which exit code a mixed batch ends with, and what the
// line key depends on. (The binary is tested in batch.test.ts.)
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { lineKey } from '../../src/commands/jobs/batch-input.js';
import { alreadyDone, keyForRun, ResultBook, type Previous } from '../../src/commands/jobs/batch-results.js';
import { Journal } from '../../src/commands/jobs/batch-journal.js';
import { worstExitCode } from '../../src/commands/jobs/batch.js';
import type { BatchResult } from '../../src/clients/jobs/batch-run.js';

function result(index: number, status: string, key = 'K', error: BatchResult['error'] = null): BatchResult {
  return { index, job_id: status === 'not_submitted' ? null : `job-${index}`, status, outputs: [], error, idempotency_key: key };
}

function previous(status: string, key = 'K', error = false): Previous {
  return { status, error, idempotency_key: key };
}

describe('ResultBook', () => {
  it('prints every line once, in input order, whatever order they finish in, holding at most `window` in memory', async () => {
    const journal = await Journal.anonymous();
    try {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 8 }), fc.infiniteStream(fc.nat()), (count, window, randomness) => {
          const finishing = Array.from({ length: count }, (_, i) => i);
          for (let i = finishing.length - 1; i > 0; i--) {
            const j = randomness.next().value % (i + 1);
            [finishing[i], finishing[j]] = [finishing[j]!, finishing[i]!];
          }
          const written: number[] = [];
          const book = new ResultBook(journal, count, (line) => written.push(JSON.parse(line).index), window);
          finishing.forEach((ordinal, n) => {
            const text = JSON.stringify(result(ordinal + 1, 'succeeded'));
            book.put(ordinal, text, journal.append(text));
            // Nothing is written ahead of a line still running.
            expect(written).toEqual(Array.from({ length: written.length }, (_, i) => i + 1));
            expect(written.length).toBeLessThanOrEqual(n + 1);
          });
          expect(written).toEqual(Array.from({ length: count }, (_, i) => i + 1));
        }),
      );
    } finally {
      journal.close();
    }
  });
});

describe('resuming', () => {
  it('skips only a success of the same line with no error', () => {
    expect(alreadyDone(previous('succeeded', 'K'), 'K')).toBe(true);
    expect(alreadyDone(previous('succeeded', 'K.3'), 'K')).toBe(true);
    expect(alreadyDone(previous('succeeded', 'OTHER'), 'K')).toBe(false);
    expect(alreadyDone(previous('succeeded', 'K.x'), 'K')).toBe(false);
    expect(alreadyDone(previous('succeeded', 'K', true), 'K')).toBe(false);
    expect(alreadyDone(previous('running', 'K'), 'K')).toBe(false);
    expect(alreadyDone(previous('sent', 'K'), 'K')).toBe(false);
  });

  it('keeps the key of a line whose job may exist, and starts a new attempt after a final failure', () => {
    const interrupted = { code: 'interrupted', message: 'interrupted', status: null, exit_code: 130 };
    expect(keyForRun('K', undefined)).toBe('K');
    expect(keyForRun('K', result(1, 'running', 'K', interrupted))).toBe('K');
    expect(keyForRun('K', result(1, 'interrupted', 'K.2', interrupted))).toBe('K.2');
    expect(keyForRun('K', result(1, 'not_submitted', 'K'))).toBe('K');
    expect(keyForRun('K', result(1, 'error', 'K'))).toBe('K');
    expect(keyForRun('K', result(1, 'failed', 'K'))).toBe('K.2');
    expect(keyForRun('K', result(1, 'refused', 'K.2'))).toBe('K.3');
    expect(keyForRun('K', result(1, 'canceled', 'K.9'))).toBe('K.10');
    expect(keyForRun('K', result(1, 'failed', 'SOMETHING-ELSE'))).toBe('K'); // the line changed since
  });

  it('derives a line key from the source, the line number, the text and the --set flags only', () => {
    const base = lineKey('/data/jobs.jsonl', 3, '{"1":{}}', ['1.seed=2']);
    expect(base).toMatch(/^wes-batch-[0-9a-f]{48}$/);
    expect(lineKey('/data/jobs.jsonl', 3, '{"1":{}}', ['1.seed=2'])).toBe(base);
    for (const other of [
      lineKey('/data/other.jsonl', 3, '{"1":{}}', ['1.seed=2']),
      lineKey('/data/jobs.jsonl', 4, '{"1":{}}', ['1.seed=2']),
      lineKey('/data/jobs.jsonl', 3, '{"1":{ }}', ['1.seed=2']),
      lineKey('/data/jobs.jsonl', 3, '{"1":{}}', []),
    ]) expect(other).not.toBe(base);
  });
});

describe('the exit code of a batch', () => {
  it.each([
    [[0, 0, 0], 0],
    [[0, 3, 0], 3],
    [[10, 3], 3],
    [[3, 6], 6],
    [[6, 5, 7], 7],
    [[7, 1], 1],
    [[1, 8], 8],
    [[8, 9, 3], 9],
    [[9, 4], 4],
    [[4, 130, 0], 130],
  ])('%j ends with %i', (codes, expected) => {
    expect(worstExitCode(codes)).toBe(expected);
  });
});
