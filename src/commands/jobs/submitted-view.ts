// A submitted job as `jobs submit` and `jobs rerun` show it: its id on stdout (the job with --json,
// unless a watch follows, whose stream stdout then is), on stderr that it was submitted (or how it
// was found after a lost answer) and how to follow it.
import type { SubmittedJob } from '../../features/jobs/submit.js';
import type { IOStreams } from '../../render/io.js';
import { sanitizeLine } from '../../util/sanitize.js';

/** `waits`: the command watches the job on (--wait, --download). */
export function showSubmitted(io: IOStreams, submitted: SubmittedJob, waits: boolean): void {
  const { job } = submitted.job;
  if (waits) {
    if (!submitted.recovered) io.info(`submitted job ${job.id}`);
    if (!io.json) io.println(job.id);
    return;
  }
  if (io.json) io.printJson(job);
  else io.println(job.id);
  if (!submitted.recovered) io.info(`✓ submitted job ${job.id} (${sanitizeLine(job.status)}); follow it with: wes jobs watch ${job.id}`);
  else io.info(`follow it with: wes jobs watch ${job.id}`);
}
