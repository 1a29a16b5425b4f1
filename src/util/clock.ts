// The time a command reads and waits on: the system's for a run, a test's own for a unit test
// (test/helpers/fakes/clock.ts), so a polling loop can be driven without waiting.
import { sleep } from './sleep.js';

export interface Clock {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
  /** Resolves after `ms`; rejects at once with the signal's reason when it aborts (as util/sleep.ts). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep,
};
