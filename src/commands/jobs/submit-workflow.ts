// Submits one prepared API-format workflow and carries on as the command asked: print the job id
// (or the Job), or follow it with --wait/--download. What `jobs submit` and `jobs rerun` share.
// The submit goes out once under a single-use Idempotency-Key whose label rides in `metadata`;
// when its answer is lost the job is found by that label (submitKeyed), never made twice.
import { randomUUID } from 'node:crypto';
import type { Factory } from '../../factory.js';
import { InterruptedError } from '../../errors.js';
import type { JobsClient } from '../../clients/jobs/client.js';
import { submitLabel } from '../../clients/jobs/label.js';
import { findCommand, submitKeyed, type SubmitOutcome } from '../../clients/jobs/submit-keyed.js';
import type { SubmitRequest } from '../../protocol/jobs.js';
import { sanitizeLine } from '../../render/sanitize.js';
import { followAndReport, type WatchJobOptions } from './watch-job.js';
import { recordSubmitted } from './history.js';

export interface SubmitWorkflowOptions {
  /** --idempotency-key: the key to use (default a new one). */
  key?: string;
  /** --label: the user's own text, joined to wes's label in `metadata`. */
  label?: string;
  /** Follow the job to its end (--wait, --download). */
  wait: boolean;
  follow: WatchJobOptions;
  /** What was submitted, for the local history: a file name, `-`, `rerun ID`. */
  source: string;
}

/** The outcome's own line, for the outcomes that were not a plain answer. */
function recoveredLine(outcome: SubmitOutcome): string | undefined {
  const id = outcome.job.job.id;
  if (outcome.how === 'lost-answer') return `the submit's answer was lost; found its job ${id} by its Idempotency-Key (nothing was sent twice)`;
  if (outcome.how === 'key-used-before') return `this Idempotency-Key was used before; its job is ${id}`;
  return undefined;
}

export async function submitWorkflow(f: Factory, client: JobsClient, workflow: Record<string, unknown>, o: SubmitWorkflowOptions): Promise<number> {
  const { io } = f;
  const key = o.key ?? randomUUID();
  const request: SubmitRequest = { workflow, metadata: submitLabel(key, o.label) };
  const partnerKey = f.settings().partnerKey;
  if (partnerKey) request.extra_data = { api_key_service_org: partnerKey };

  let outcome: SubmitOutcome;
  try {
    outcome = await submitKeyed(client, { request, key, keyGiven: o.key !== undefined, signal: f.signal });
  } catch (err) {
    if (err instanceof InterruptedError) {
      // Stopped while the submit was on its way: the service may have made the job.
      err.hint = `the submit was on its way and may have made a job; look for it with: ${findCommand(key)}`;
    }
    throw err;
  }
  const submitted = outcome.job;
  const recovered = recoveredLine(outcome);
  if (recovered) io.notice(sanitizeLine(recovered));
  recordSubmitted(f, submitted.job, o.source);
  if (o.wait) {
    if (!recovered) io.info(`submitted job ${submitted.job.id}`);
    if (!io.json) io.println(submitted.job.id);
    return followAndReport(f, client, submitted, o.follow);
  }
  if (io.json) io.printJson(submitted.job);
  else io.println(submitted.job.id);
  if (!recovered) io.info(`✓ submitted job ${submitted.job.id} (${sanitizeLine(submitted.job.status)}); follow it with: wes jobs watch ${submitted.job.id}`);
  else io.info(`follow it with: wes jobs watch ${submitted.job.id}`);
  return 0;
}
