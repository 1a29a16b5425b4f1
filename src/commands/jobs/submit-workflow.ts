// What `jobs submit` and `jobs rerun` share once the workflow is in hand (read, converted): the
// --set targets checked here, the submit itself (uploads, the single-use Idempotency-Key, the
// history) by src/features/jobs/submit.ts, then the job printed, and with --wait / --download
// followed as `jobs watch` does.
import { randomUUID } from 'node:crypto';
import type { Factory } from '../../factory.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { parseSet } from '../../features/jobs/inputs.js';
import { submitJob } from '../../features/jobs/submit.js';
import { transferReporterOn } from '../reporters.js';
import { watchJob } from '../../features/jobs/watch.js';
import { JobFollowView, showWatched } from './follow-view.js';
import { checkInputNames } from '../../command-kit/jobs/set-input-names.js';
import { jobWatch, type SubmitFlags, type WatchJobOptions } from './options.js';
import { labelMap } from './label-option.js';

/** A workflow ready to send, and what to call it. */
export interface PreparedWorkflow {
  /** The API-format workflow (read, and converted when it was saved in the editor's format). */
  workflow: Record<string, unknown>;
  /** What the history calls it: the file's name, `-`, or `rerun ID`. */
  source: string;
}

/** Submits `prepared` with the --set inputs applied; follows it with --wait (the follow targets are already checked). */
export async function submitWorkflow(f: Factory, prepared: PreparedWorkflow, opts: SubmitFlags, follow: WatchJobOptions): Promise<number> {
  const { io } = f;
  const { workflow } = prepared;
  const assignments = (opts.set ?? []).map((arg) => parseSet(arg, workflow));
  await checkInputNames(f, workflow, assignments, opts.strict === true);
  const client = f.client(JobsClient);
  const submitted = await submitJob(
    f,
    client,
    opts.idempotencyKey ?? randomUUID(),
    { workflow, assignments, keyGiven: opts.idempotencyKey !== undefined, labels: labelMap(opts.label), source: prepared.source },
    transferReporterOn(io),
  );
  const { job } = submitted.job;
  // --download implies --wait (declared in options.ts).
  if (opts.wait) {
    if (!submitted.recovered) io.info(`submitted job ${job.id}`);
    if (!io.json) io.println(job.id);
    return showWatched(io, await watchJob(f, client, submitted.job, jobWatch(f, job.id, follow), await JobFollowView.watching(io, job, follow)), follow);
  }
  if (io.json) io.printJson(job);
  else io.println(job.id);
  if (!submitted.recovered) io.info(`✓ submitted job ${job.id} (${sanitizeLine(job.status)}); follow it with: wes jobs watch ${job.id}`);
  else io.info(`follow it with: wes jobs watch ${job.id}`);
  return 0;
}
