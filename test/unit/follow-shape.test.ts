// The one shape of a follow (src/features/follow.ts): the result passes through untouched; on a
// failure the live line goes first, then the failure is told how to go on, and what `stopped`
// returns is what the caller gets.
import { describe, expect, it } from 'vitest';
import { following } from '../../src/features/follow.js';
import type { FollowReporter } from '../../src/features/reporter.js';

function recorder(said: string[]): FollowReporter<number> {
  return {
    verbose: false,
    notice: (level, line) => void said.push(`${level}: ${line}`),
    progress: (n) => void said.push(`progress ${n}`),
    event: (line) => void said.push(`event ${line}`),
    stop: () => void said.push('stop'),
  };
}

describe('following', () => {
  it('returns the loop result and leaves the live line to the view', async () => {
    const said: string[] = [];
    const reporter = recorder(said);
    const result = await following(reporter, async () => {
      await reporter.progress(1);
      return 'done';
    }, (err) => err);
    expect(result).toBe('done');
    expect(said).toEqual(['progress 1']);
  });

  it('takes the live line down before the failure is told, and throws what `stopped` makes of it', async () => {
    const said: string[] = [];
    const reporter = recorder(said);
    const told = following(reporter, async () => {
      throw new Error('dropped');
    }, async (err) => {
      said.push('told');
      return new Error(`${(err as Error).message}; resume with: wes jobs watch J`);
    });
    await expect(told).rejects.toThrow('dropped; resume with: wes jobs watch J');
    expect(said).toEqual(['stop', 'told']);
  });
});
