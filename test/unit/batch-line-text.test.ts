// The stderr line printed for each finished line of a batch (src/commands/jobs/batch-progress.ts).
import { describe, expect, it } from 'vitest';
import { finishedLineText } from '../../src/commands/jobs/batch-progress.js';
import type { BatchResult } from '../../src/features/batch/runner.js';

const result = (over: Partial<BatchResult>): BatchResult => ({ index: 3, job_id: null, status: 'succeeded', outputs: [], error: null, idempotency_key: 'K', ...over });

describe('finishedLineText', () => {
  it('says a line stopped by Ctrl-C once, not as its status, code and message', () => {
    const stopped = result({ status: 'interrupted', error: { code: 'interrupted', message: 'interrupted', status: null, exit_code: 130 } });
    expect(finishedLineText(stopped)).toBe('line 3: interrupted');
  });

  it('keeps the code and message when they add to the status', () => {
    const failed = result({ job_id: 'j1', status: 'failed', error: { code: 'node_error', message: 'node 4 (KSampler) failed', status: null, exit_code: 3 } });
    expect(finishedLineText(failed)).toBe('line 3: job j1 failed: node_error: node 4 (KSampler) failed');
    const refused = result({ status: 'refused', error: { code: 'invalid_prompt', message: 'invalid_prompt', status: 400, exit_code: 2 } });
    expect(finishedLineText(refused)).toBe('line 3: refused: invalid_prompt');
  });

  it('counts outputs and strips control characters from server text', () => {
    const done = result({ job_id: 'j2', outputs: [{} as never, {} as never] });
    expect(finishedLineText(done)).toBe('line 3: job j2 succeeded (2 outputs)');
    const odd = result({ status: 'failed', error: { code: 'x', message: 'bad\u001b[2Jthing', status: null, exit_code: 3 } });
    expect(finishedLineText(odd)).not.toContain('\u001b');
  });
});
