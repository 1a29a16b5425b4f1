// A clock a unit test drives: every sleep moves its time forward by what was asked and resolves
// on the next turn of the event loop, so a polling verb runs through its waits at once. The
// sleeps are recorded (a test checks the intervals a verb waited).
import type { Clock } from '../../../src/util/clock.js';

export class FakeClock implements Clock {
  readonly sleeps: number[] = [];

  constructor(private time = Date.parse('2026-03-01T12:00:00Z')) {}

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.sleeps.push(ms);
    this.time += ms;
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      setImmediate(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }
}
