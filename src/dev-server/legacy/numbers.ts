// v1 answers carry a queue `number` per prompt (the local engine's submission counter). The engine
// keeps no such counter, so the legacy API hands them out in the order it first sees each job.
import type { DevState } from '../contract.js';

interface Counter {
  next: number;
  byJob: Map<string, number>;
}

const counters = new WeakMap<DevState, Counter>();

export function promptNumber(state: DevState, jobId: string): number {
  let counter = counters.get(state);
  if (!counter) {
    counter = { next: 0, byJob: new Map() };
    counters.set(state, counter);
  }
  let number = counter.byJob.get(jobId);
  if (number === undefined) {
    number = counter.next++;
    counter.byJob.set(jobId, number);
  }
  return number;
}
