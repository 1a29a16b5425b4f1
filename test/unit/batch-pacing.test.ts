// The pacing of one batch endpoint (AIMD on the lines in flight) and when it is set aside.
import { describe, expect, it } from 'vitest';
import { Endpoint, SET_ASIDE_AFTER } from '../../src/features/batch/endpoint.js';
import type { JobsClient } from '../../src/clients/jobs/client.js';

function endpoint(concurrency: number): Endpoint {
  return new Endpoint({ name: 'e', url: 'http://127.0.0.1:1', client: {} as JobsClient, concurrency });
}

describe('batch endpoint pacing', () => {
  it('halves the window on a full queue, once per wait period, and grows it back by 1/window per accepted submit', () => {
    const e = endpoint(64);
    expect(e.room).toBe(64);
    e.refusedForLoad(2000, 10_000);
    expect(e.room).toBe(32);
    e.refusedForLoad(2000, 10_500); // the same burst: not halved again
    expect(e.room).toBe(32);
    e.refusedForLoad(2000, 12_500);
    expect(e.room).toBe(16);
    let accepts = 0;
    while (e.room < 64) {
      e.accepted();
      accepts++;
    }
    // From 16 back to 64 takes about the sum of the windows passed through (additive increase).
    expect(accepts).toBeGreaterThan(16 * 48 * 0.9);
    expect(accepts).toBeLessThan(64 * 48);
    e.accepted();
    expect(e.room).toBe(64); // never past the concurrency asked for
    expect(e.stats()).toMatchObject({ throttled: 3, minWindow: 16, concurrency: 64, submitted: accepts + 1 });
  });

  it('never paces below one line in flight, and counts lines in flight against the window', () => {
    const e = endpoint(3);
    for (let i = 0; i < 5; i++) e.refusedForLoad(0, i * 1000);
    expect(e.room).toBe(1);
    e.started();
    expect(e.room).toBe(0);
    e.ended('succeeded');
    expect(e.room).toBe(1);
  });

  it(`is set aside after ${SET_ASIDE_AFTER} failures in a row, not when an answer comes between them`, () => {
    const e = endpoint(4);
    for (let i = 0; i < SET_ASIDE_AFTER - 1; i++) expect(e.failedHard('refused')).toBe(false);
    e.answered();
    for (let i = 0; i < SET_ASIDE_AFTER - 1; i++) expect(e.failedHard('refused')).toBe(false);
    expect(e.failedHard('connection refused')).toBe(true);
    expect(e.setAsideBecause).toBe('connection refused');
    expect(e.room).toBe(0);
    expect(e.failedHard('again')).toBe(false); // told once
  });
});
