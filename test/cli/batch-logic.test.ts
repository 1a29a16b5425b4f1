// The pure rules of batch mode: results come out in input order whatever order lines finish in,
// what a resumed line does (carried, followed, looked for by key, or sent under a new key), which
// exit code a mixed batch ends with, and what the line id depends on. (The binary is tested in
// batch.test.ts.)
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { lineId } from '../../src/features/batch/input.js';
import { planLine, ResultBook, type Previous } from '../../src/features/batch/results.js';
import { Journal } from '../../src/features/batch/journal.js';
import { worstExitCode } from '../../src/commands/jobs/batch-outcome.js';
import type { BatchResult } from '../../src/features/batch/runner.js';

function result(index: number, status: string, key = 'K', error: BatchResult['error'] = null): BatchResult {
  return { index, job_id: status === 'not_submitted' ? null : `job-${index}`, status, outputs: [], error, idempotency_key: key };
}

const LINE = 'wes-batch-line-1';

/** What an earlier run left: a result (status, job id, key) and optionally a send after or before it. */
function previous(status: string, fields: { jobId?: string | null; key?: string; error?: boolean; lineId?: string; sent?: { key: string; jobId?: string; newer: boolean; sentAt?: number } } = {}): Previous {
  const key = fields.key ?? 'K1';
  const text = () => JSON.stringify({ index: 1, status });
  return {
    result: {
      status,
      error: fields.error ? { code: 'x', exit_code: 1 } : null,
      job_id: fields.jobId === undefined ? (status === 'not_submitted' || status === 'refused' ? null : 'job-1') : fields.jobId,
      idempotency_key: key,
      endpoint: 'http://a',
      line_id: fields.lineId ?? LINE,
      text,
    },
    sent: fields.sent ? { index: 1, idempotency_key: fields.sent.key, sent_to: 'http://a', line_id: fields.lineId ?? LINE, ...(fields.sent.jobId ? { job_id: fields.sent.jobId } : {}), ...(fields.sent.sentAt ? { sent_at: fields.sent.sentAt } : {}) } : undefined,
    sentIsNewer: fields.sent?.newer ?? false,
  };
}

function sentOnly(key: string, jobId?: string, sentAt?: number): Previous {
  return { sent: { index: 1, idempotency_key: key, sent_to: 'http://a', line_id: LINE, ...(jobId ? { job_id: jobId } : {}), ...(sentAt ? { sent_at: sentAt } : {}) }, sentIsNewer: true };
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
  it('carries a success of the same line with no error, and a job over for good unless --retry-failed', () => {
    expect(planLine(previous('succeeded'), LINE).kind).toBe('carry');
    expect(planLine(previous('failed'), LINE).kind).toBe('carry');
    expect(planLine(previous('canceled'), LINE, { retryFailed: true }).kind).toBe('send');
    expect(planLine(previous('succeeded', { lineId: 'another-line' }), LINE).kind).toBe('send');
  });

  it('follows every job the journal names, never submitting its line again', () => {
    expect(planLine(previous('running'), LINE)).toEqual({ kind: 'follow', jobId: 'job-1', key: 'K1', endpoint: 'http://a' });
    expect(planLine(previous('succeeded', { error: true }), LINE)).toMatchObject({ kind: 'follow', jobId: 'job-1' });
    expect(planLine(sentOnly('K2', 'job-2'), LINE)).toEqual({ kind: 'follow', jobId: 'job-2', key: 'K2', endpoint: 'http://a' });
    // A later attempt (after a failure, with --retry-failed) whose answer named its job.
    expect(planLine(previous('failed', { sent: { key: 'K3', jobId: 'job-3', newer: true } }), LINE)).toMatchObject({ kind: 'follow', jobId: 'job-3' });
  });

  it('looks for the job of a key sent with no answer; sends under a new key only what the server made nothing of', () => {
    expect(planLine(sentOnly('K2', undefined, 1234), LINE)).toEqual({ kind: 'find', key: 'K2', endpoint: 'http://a', sentAt: 1234 });
    expect(planLine(previous('in_doubt', { jobId: null, sent: { key: 'K1', newer: false } }), LINE)).toMatchObject({ kind: 'find', key: 'K1' });
    expect(planLine(previous('interrupted', { jobId: null, sent: { key: 'K1', newer: false } }), LINE)).toMatchObject({ kind: 'find', key: 'K1' });
    // The results file alone (its journal gone): a result naming an endpoint went out there.
    expect(planLine(previous('interrupted', { jobId: null }), LINE)).toEqual({ kind: 'find', key: 'K1', endpoint: 'http://a' });
    expect(planLine(previous('refused', { sent: { key: 'K1', newer: false } }), LINE).kind).toBe('send');
    expect(planLine(previous('not_submitted'), LINE).kind).toBe('send');
    expect(planLine(undefined, LINE).kind).toBe('send');
  });

  it('takes the records of wes before single-use keys (keys derived from the line) as the same line', () => {
    const legacy: Previous = { result: { ...previous('succeeded').result!, line_id: undefined, idempotency_key: `${LINE}.2` }, sentIsNewer: false };
    expect(planLine(legacy, LINE).kind).toBe('carry');
    expect(planLine({ ...legacy, result: { ...legacy.result!, idempotency_key: 'OTHER' } }, LINE).kind).toBe('send');
  });

  it('derives a line key from the source, the line number, the text and the --set flags only', () => {
    const base = lineId('/data/jobs.jsonl', 3, '{"1":{}}', ['1.seed=2']);
    expect(base).toMatch(/^wes-batch-[0-9a-f]{48}$/);
    expect(lineId('/data/jobs.jsonl', 3, '{"1":{}}', ['1.seed=2'])).toBe(base);
    for (const other of [
      lineId('/data/other.jsonl', 3, '{"1":{}}', ['1.seed=2']),
      lineId('/data/jobs.jsonl', 4, '{"1":{}}', ['1.seed=2']),
      lineId('/data/jobs.jsonl', 3, '{"1":{ }}', ['1.seed=2']),
      lineId('/data/jobs.jsonl', 3, '{"1":{}}', []),
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
