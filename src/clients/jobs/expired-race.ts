// A job read as `expired` while its own `expires_at` is still ahead did not pass its retention:
// the reference self-hosted server answers so now and then at the moment a job completes (about
// one poll in 14), and its next read says `succeeded`. Such a read is asked again, a few times,
// before anyone is told the retention passed.
import { systemClock, type Clock } from '../../util/clock.js';
import type { FetchedJob } from './client.js';
import type { Job } from '../../protocol/jobs.js';

const RE_READS = 4;
const RE_READ_GAP_MS = 250;

/** `expired` although `expires_at` is in the future. */
export function expiredEarly(job: Job, now = systemClock.now()): boolean {
  return job.status === 'expired' && Date.parse(job.expires_at) > now;
}

/** Reads again (through `read`) while the job reads as expired early; the last read is the answer. */
export async function settleExpired(first: FetchedJob, read: () => Promise<FetchedJob>, signal?: AbortSignal, clock: Clock = systemClock): Promise<FetchedJob> {
  let current = first;
  for (let i = 0; i < RE_READS && expiredEarly(current.job, clock.now()); i++) {
    await clock.sleep(RE_READ_GAP_MS, signal);
    current = await read();
  }
  return current;
}
