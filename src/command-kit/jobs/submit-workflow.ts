// What `jobs submit` and `jobs rerun` do once the workflow is in hand (read, converted): the --set
// values read against it and their targets checked (set-input-names.ts), then the submit itself
// by src/features/jobs/submit.ts (uploads, the single-use Idempotency-Key, the history). The verb
// shows the job, and with --wait / --download watches it as `jobs watch` does.
import { randomUUID } from 'node:crypto';
import type { Factory } from '../../factory.js';
import type { JobsClient } from '../../clients/jobs/client.js';
import type { JobLabels } from '../../protocol/jobs.js';
import { parseSet } from '../../features/jobs/inputs.js';
import { submitJob, type SubmittedJob } from '../../features/jobs/submit.js';
import type { TransferReporter } from '../../features/reporter.js';
import { checkInputNames } from './set-input-names.js';

/** A workflow ready to send, and what to call it. */
export interface PreparedWorkflow {
  /** The API-format workflow (read, and converted when it was saved in the editor's format). */
  workflow: Record<string, unknown>;
  /** What the history calls it: the file's name, `-`, or `rerun ID`. */
  source: string;
}

/** The submit flags as given: --set, --strict, --idempotency-key, and the --label pairs as a map. */
export interface SubmitInputs {
  set?: string[];
  strict?: boolean;
  idempotencyKey?: string;
  labels?: JobLabels;
}

/** Submits `prepared` with the --set inputs applied (their files uploaded, told to `reporter`). */
export async function submitPrepared(f: Factory, client: JobsClient, prepared: PreparedWorkflow, inputs: SubmitInputs, reporter: TransferReporter): Promise<SubmittedJob> {
  const { workflow } = prepared;
  const assignments = (inputs.set ?? []).map((arg) => parseSet(arg, workflow));
  await checkInputNames(f, workflow, assignments, inputs.strict === true);
  return submitJob(f, client, inputs.idempotencyKey ?? randomUUID(), { workflow, assignments, keyGiven: inputs.idempotencyKey !== undefined, labels: inputs.labels, source: prepared.source }, reporter);
}
